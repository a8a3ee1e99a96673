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

/**
 * A `HydrateLater` part rendered while the page is being hydrated: a promise that settles in a task of its own, once
 * the parts before it have had theirs (undefined when the page is not being hydrated: the part renders at once). A
 * part inside a part hydrated later (the filters' groups inside the filters) waits for a turn of its own after the
 * parts already waiting, so a large block is not one task either.
 */
export function waitForTurn(): Promise<void> | undefined {
  if (!firstPassHydrating || hydrated) return undefined;
  return new Promise((resolve) => releases.push(resolve));
}

/**
 * One part per task: a part renders (hydrates) in the microtasks right after its promise settles, so when the next
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

export function markHydrated(): void {
  if (hydrated) return;
  hydrated = true;
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
