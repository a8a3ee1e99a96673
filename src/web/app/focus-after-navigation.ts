import { type RefObject, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * After a navigation inside the app, focus goes to the new page's main heading, as a new document's would be read
 * from the top: a screen reader announces the page by its heading, and the next Tab reaches the page's first control
 * instead of wherever the old page left focus (the body, so the footer came first). Not on the page's first load,
 * where the browser's own start applies, and not when only the search or the hash changes (a filter, the skip link):
 * that is the same page.
 */
export function useFocusAfterNavigation(main: RefObject<HTMLElement | null>): void {
  const { pathname } = useLocation();
  const shown = useRef(pathname);

  useEffect(() => {
    // The first load, and React's second run of the same effect in development.
    if (shown.current === pathname) return;
    shown.current = pathname;
    const element = main.current;
    return element ? focusMainHeading(element) : undefined;
  }, [pathname, main]);
}

/**
 * Focuses the page's first h1 in `main`, or `main` itself while the page has none yet (a lazy page or its data still
 * loading). Until the person acts (a key or a pointer), a heading that appears later takes the focus that was parked
 * on `main` or lost to the body (a loading heading replaced by the page's own). Returns the stop of that watch.
 */
function focusMainHeading(main: HTMLElement): () => void {
  const focusHeading = (): boolean => {
    const heading = main.querySelector<HTMLElement>('h1');
    const target = heading ?? main;
    if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
    // The router's scroll restoration places the page; focusing must not scroll it again.
    target.focus({ preventScroll: true });
    return heading !== null;
  };
  focusHeading();

  const observer = new MutationObserver(() => {
    const active = document.activeElement;
    const parked = active === null || active === document.body || active === main;
    if (parked && main.querySelector('h1')) focusHeading();
  });
  observer.observe(main, { childList: true, subtree: true });
  const stop = () => {
    observer.disconnect();
    window.removeEventListener('keydown', stop, true);
    window.removeEventListener('pointerdown', stop, true);
  };
  window.addEventListener('keydown', stop, true);
  window.addEventListener('pointerdown', stop, true);
  return stop;
}
