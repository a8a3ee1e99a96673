import { useEffect, useSyncExternalStore } from 'react';

/*
 * Issue 15: whether the app has taken over a server-rendered page (Preact in the browser, ADR 021). What only the
 * browser knows (the stored sign-in, this browser's garage) must not change the first render of such a page, or the
 * hydration finds HTML it did not expect and renders that part anew. So it becomes true only once the page itself is
 * hydrated (`HydrationDone` inside the layout's boundary, beside the page); a page the browser renders by itself says
 * so before it starts. The boot script (boot.ts) waits for it to hand over what the visitor did meanwhile.
 */
let hydrated = false;
const listeners = new Set<() => void>();

/*
 * Parts hydrated later (`HydrateLater`, hydrate-later.tsx): the blocks a phone does not show first, each in a task of
 * its own after the page's first pass, so no single task holds the whole page's hydration (issue 15, Total Blocking Time). The page
 * counts as hydrated once the first pass and every such part are done.
 */
let firstPassHydrating = false;
const releases: Array<() => void> = [];

/** main.tsx, right before it hydrates a server-rendered page: parts marked `HydrateLater` wait for their turn. */
export function startHydration(): void {
  firstPassHydrating = true;
}

/** A part's turn: a thenable that `HydrateLater` throws (Preact's Suspense waits on anything with `then`). */
export interface Turn {
  then(onTurn: () => void): void;
}

/**
 * A `HydrateLater` part rendered while the page is being hydrated: its turn, which comes in a task of its own once the
 * parts before it have had theirs (undefined when the page is not being hydrated: the part renders at once). A part
 * inside a part hydrated later (the filters' groups inside the filters) waits for a turn of its own after the parts
 * already waiting, so a large block is not one task either.
 *
 * A plain callback list, not a Promise: with DevTools' async call stacks on (Lighthouse turns them on for its runs)
 * every Promise and `then` made records the JavaScript stack, which is deep in the middle of a hydration; with ~25 parts
 * on the parts list (a Promise, a `then` here and one in Suspense each) that doubled the first pass (10 → 16–24 ms
 * unthrottled, ×4 in Lighthouse's mobile figures).
 */
export function waitForTurn(): Turn | undefined {
  if (!firstPassHydrating || hydrated) return undefined;
  const waiting: Array<() => void> = [];
  let released = false;
  releases.push(() => {
    released = true;
    for (const onTurn of waiting.splice(0)) onTurn();
  });
  return {
    // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose: Preact's Suspense waits on what has `then`.
    then(onTurn) {
      if (released) onTurn();
      else waiting.push(onTurn);
    },
  };
}

/**
 * One part per task: a part renders (hydrates) in the microtasks right after its turn comes, so when the next
 * task runs it is done. After the last one the page is said to be hydrated once the parts' effects have run too:
 * Preact runs them after the next frame, and the boot script's hand-over (ADR 021) must come after them, or an effect
 * that sets a field from its props on mount (the price filter's) empties what the visitor typed before.
 */
function releaseNext(): void {
  setTimeout(() => {
    const release = releases.shift();
    if (!release) {
      afterEffects(markHydrated);
      return;
    }
    release();
    releaseNext();
  }, 0);
}

/** In a task after the effects scheduled so far have run (Preact's `afterPaint`: the next frame, 100 ms at most). */
function afterEffects(callback: () => void): void {
  let done = false;
  const next = () => {
    if (done) return;
    done = true;
    clearTimeout(fallback);
    setTimeout(callback, 0);
  };
  // A hidden tab draws no frames.
  const fallback = setTimeout(next, 100);
  requestAnimationFrame(next);
}

/** The first pass is hydrated (`HydrationDone`'s effect): the parts left for later take their turns, one per task. */
export function firstPassFinished(): void {
  if (releases.length === 0) markHydrated();
  else releaseNext();
}

/** Started once the page is hydrated (`afterHydration`). */
const startLater: Array<() => void> = [];

/**
 * Runs `start` now, or once the page is hydrated while a server-rendered page is being hydrated. For timers that can
 * wait (the queries' garbage collection and staleness, lib/query-timers.ts): with DevTools' async call stacks on (as
 * in Lighthouse's runs) each timer set records the JavaScript stack, which is deepest in the middle of a hydration.
 */
export function afterHydration(start: () => void): void {
  if (firstPassHydrating && !hydrated) startLater.push(start);
  else start();
}

export function markHydrated(): void {
  if (hydrated) return;
  hydrated = true;
  for (const start of startLater.splice(0)) start();
  // Said on the page too: browser tests wait for it before they click.
  document.documentElement.dataset.hydrated = 'true';
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** False on the server and until a server-rendered page is hydrated, true otherwise. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => hydrated,
    () => false,
  );
}

/**
 * Rendered inside the boundary whose hydration ends the server's render: its effect runs once that is done, and the
 * parts left for later then take their turns.
 */
export function HydrationDone(): null {
  useEffect(firstPassFinished, []);
  return null;
}

/**
 * Said on the page once the app knows who is using it (a stored sign-in checked with the server, or none): the boot
 * script (boot.ts) hands over presses and forms sent before the app ran only then, so "Place Order" pressed while the
 * page was loading is placed for the signed-in customer, not treated as a visitor's.
 */
export function markInteractive(): void {
  document.documentElement.dataset.interactive = 'true';
}
