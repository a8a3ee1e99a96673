import { useEffect } from 'react';

const SHOP_NAME = 'Redline Parts';

/** "<page> | Redline Parts", or just the shop's name on the home page; the server renders the same (issue 15). */
export function documentTitle(title?: string): string {
  return title ? `${title} | ${SHOP_NAME}` : `${SHOP_NAME}: vehicle and motorcycle parts`;
}

/** Sets the document title as "<page> | Redline Parts" (or just the shop name on the home page). */
export function usePageTitle(title?: string): void {
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}
