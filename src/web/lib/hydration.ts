import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False on the server and while React hydrates the component that asks (its HTML came from the server), true once it
 * has: React renders with the server snapshot during hydration and again with the browser's right after.
 *
 * What only the browser knows (the stored sign-in, this browser's garage and cart) must not change the render that
 * hydrates a server-rendered page, or React finds HTML it did not expect and renders that part anew. And a control
 * that only works with the app (a button with no form to send, a field the app alone reads) is `disabled={!hydrated}`:
 * before its part of the page is hydrated a press would reach no handler, so the visitor sees it cannot be used yet
 * rather than pressing it for nothing. Links and the search form work without the app and stay enabled.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
