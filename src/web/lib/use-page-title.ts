import { useEffect } from 'react';

const SHOP_NAME = 'Redline Parts';

/** The shop's description: the home page's, and every page's after a move inside the app (see followHead). */
export const SHOP_DESCRIPTION =
  'Redline Parts: brakes, seats, helmets, chains, filters and riding gear for cars and motorcycles, shipped from our workshop.';

/** "<page> | Redline Parts", or just the shop's name on the home page; the server renders the same. */
export function documentTitle(title?: string): string {
  return title ? `${title} | ${SHOP_NAME}` : `${SHOP_NAME}: vehicle and motorcycle parts`;
}

/** The address the server wrote the page's head for (description, canonical, Open Graph, JSON-LD). */
const firstAddress = typeof location === 'undefined' ? '' : `${location.pathname}${location.search}`;

/**
 * After a move inside the app, the head the server wrote describes the page first loaded: its title and address
 * follow the page shown, and what only that page had (its description, JSON-LD, `noindex`) goes.
 */
function followHead(title: string) {
  if (`${location.pathname}${location.search}` === firstAddress) return;
  const head = document.head;
  const url = `${location.origin}${location.pathname}`;
  head.querySelector('meta[property="og:title"]')?.setAttribute('content', title);
  head.querySelector('meta[property="og:url"]')?.setAttribute('content', url);
  head.querySelector('link[rel="canonical"]')?.setAttribute('href', url);
  head.querySelector('meta[name="description"]')?.setAttribute('content', SHOP_DESCRIPTION);
  head.querySelector('meta[property="og:description"]')?.setAttribute('content', SHOP_DESCRIPTION);
  head.querySelector('meta[property="og:type"]')?.setAttribute('content', 'website');
  for (const stale of head.querySelectorAll('script[type="application/ld+json"], meta[name="robots"]')) stale.remove();
}

/** Sets the document title as "<page> | Redline Parts" (or just the shop name on the home page). */
export function usePageTitle(title?: string): void {
  useEffect(() => {
    document.title = documentTitle(title);
    followHead(document.title);
  }, [title]);
}
