import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while the server renders a page and while the browser hydrates it, true on every render after (and always
 * in a page the browser renders by itself). What only the browser knows (the stored sign-in, this browser's
 * garage) must not change the first render of a server-rendered page, or React finds HTML it did not expect
 * (issue 15): read it once this is true.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
