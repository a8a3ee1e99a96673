import { type ReactElement, Suspense, useState } from 'react';
import { waitForTurn } from './hydration.ts';

/*
 * Issue 15 (Total Blocking Time): a part of a server-rendered page the browser hydrates in a task of its own, after
 * the page's first pass (the layout and what is above the fold), so no single task holds a whole page's hydration.
 *
 * How: in the first pass the part suspends (`Wait` throws its turn, a thenable, lib/hydration.ts).
 * Preact keeps the server's HTML of a part that suspends while hydrating and hydrates that HTML when the part renders
 * again, which is why the child must be ONE element (Preact keeps only the first node it meets). The server (React)
 * renders the child as it is, with no Suspense of its own: a boundary there would add markers to the HTML. Outside a
 * hydration (a page the browser renders itself, the component tests) it renders at once.
 */
export function HydrateLater({ children }: { children: ReactElement }) {
  if (import.meta.env.SSR) return children;
  return (
    <Suspense fallback={null}>
      <Wait>{children}</Wait>
    </Suspense>
  );
}

function Wait({ children }: { children: ReactElement }) {
  // Claimed in the part's first render and kept by the render in its turn.
  const [wait] = useState(() => {
    const state = { done: false, turn: waitForTurn() };
    state.turn?.then(() => {
      state.done = true;
    });
    return state;
  });
  if (wait.turn && !wait.done) throw wait.turn;
  return children;
}
