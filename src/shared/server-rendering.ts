/**
 * The contract between the server and the web app's server-rendering bundle (ADR 015): the server loads
 * `entry-server.js` from the build and calls `render`; it never imports the web app's sources.
 */

/** The id of the `<script type="application/json">` that carries the server's data to the browser's hydration. */
export const SERVER_STATE_ID = 'redline-server-state';

/**
 * The route module of each page the server renders, as Vite's manifest names it: the server preloads its chunks
 * (entry-server.tsx → static-spa.ts), and the build marks them for eager compilation (vite.config.ts, `compileHints`).
 */
export const SERVER_RENDERED_ROUTE_MODULES = {
  home: 'src/web/app/routes/home-page.tsx',
  parts: 'src/web/app/routes/parts-route.tsx',
  part: 'src/web/app/routes/purchase-route.tsx',
  blog: 'src/web/features/content/blog-page.tsx',
  portfolio: 'src/web/features/content/portfolio-page.tsx',
  'not-found': 'src/web/features/content/not-found-page.tsx',
} as const;

export interface RenderRequest {
  /** The request's path and query, e.g. `/allparts?q=brake`. */
  url: string;
  /** The shop's public address (PUBLIC_URL), for canonical URLs, Open Graph and JSON-LD. */
  publicUrl: string;
  /** Sends an API request to the server's own app (app.inject): validation, caching and limits apply as for anyone. */
  fetch(url: URL, init: RequestInit): Promise<Response>;
}

export type RenderResult =
  /** A server-rendered page: `head` goes into `<head>`, `body` into `#root`, `state` into the state script. */
  | {
      kind: 'page';
      status: number;
      head: string;
      body: string;
      state: string;
      /** The page's route module as Vite's manifest names it: its chunks are preloaded, its styles linked. */
      routeModule: string;
    }
  /** A page the browser renders (signed-in pages, or a part that does not exist): the shell, with this status. */
  | { kind: 'shell'; status: number };

export interface ServerRenderer {
  render(request: RenderRequest): Promise<RenderResult>;
}

/** JSON that is safe inside a `<script>` element: no `<` can close it or open a comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Text safe inside an HTML attribute value or element. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
