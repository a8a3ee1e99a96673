/**
 * What the browser build gets for `import … from 'react'` (vite.config.ts, `browserRuntime`; ADR 021): Preact's React
 * compatibility layer, ~10 KiB gzip where React DOM is ~65 KiB, so the home page's whole JavaScript fits issue 15's
 * 100 KiB. The server still renders with React (entry-server.tsx); Preact hydrates that HTML.
 *
 * React Router's `RouterProvider` imports `useOptimistic` (React 19), which preact/compat lacks. The router calls its
 * setter only with `useTransitions` on, which this app does not set, so the state passed in is the state shown.
 */
import React from 'preact/compat';

// @ts-expect-error TS2498: preact/compat's type declarations use `export =`; its ES module (what the build reads) has
// the named exports re-exported here.
export * from 'preact/compat';

export function useOptimistic<State>(passthrough: State): [State, (action: unknown) => void] {
  return [passthrough, () => {}];
}

// biome-ignore lint/style/noDefaultExport: it stands for `react`, whose default export libraries import (`import React from 'react'`).
export default { ...React, useOptimistic };
