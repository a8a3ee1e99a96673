import { useEffect } from 'react';

const SHOP_NAME = 'Redline Parts';

/** Sets the document title as "<page> | Redline Parts" (or just the shop name on the home page). */
export function usePageTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} | ${SHOP_NAME}` : `${SHOP_NAME}: vehicle and motorcycle parts`;
  }, [title]);
}
