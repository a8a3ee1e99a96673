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

/** Rendered inside the boundary whose hydration ends the server's render: its effect runs once that is done. */
export function HydrationDone(): null {
  useEffect(markHydrated, []);
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
