import { useEffect, useSyncExternalStore } from 'react';

/*
 * Issue 15: whether React has taken over a server-rendered page. What only the browser knows (the stored sign-in,
 * this browser's garage) must not change the first render of such a page, or React finds HTML it did not expect;
 * and it must not change while the page's own part (the route, inside the layout's Suspense boundary) still waits
 * to be hydrated, or React throws that HTML away and renders it again. So it becomes true only once that part is
 * hydrated (`useMarkHydrated` inside the boundary); a page the browser renders by itself says so before it starts.
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
