const PARTS = '/allparts';
const DASHBOARD = '/dashboard';

/**
 * Every address of the web app (spec §2), defined once: the router matches these, links and redirects go to them.
 * `/myprotfolio` is spelt as the spec spells it.
 */
export const paths = {
  home: '/',
  parts: PARTS,
  /** The parts list already searched, e.g. the home page's 'I NEED IT'. */
  partsSearch: (q: string) => `${PARTS}?${new URLSearchParams({ q })}`,
  part: (partId: string) => `/part/${partId}`,
  portfolio: '/myprotfolio',
  blog: '/blog',
  login: '/login',
  register: '/register',
  authCallback: '/auth/callback',
  dashboard: {
    root: DASHBOARD,
    myOrder: `${DASHBOARD}/myorder`,
    addReview: `${DASHBOARD}/addreview`,
    payment: (orderId: string) => `${DASHBOARD}/payment/${orderId}`,
    myProfile: `${DASHBOARD}/myprofile`,
    users: `${DASHBOARD}/users`,
    manageProducts: `${DASHBOARD}/manageproduct`,
    manageOrders: `${DASHBOARD}/manageorder`,
    addProduct: `${DASHBOARD}/addaproduct`,
  },
} as const;

/** The patterns of the addresses that carry an id, built by the same functions the links use. */
export const routePatterns = {
  part: paths.part(':partId'),
  payment: paths.dashboard.payment(':orderId'),
} as const;

/** A dashboard address as the dashboard's own nested routes match it: relative to /dashboard. */
export function dashboardRoute(path: string): string {
  if (!path.startsWith(`${DASHBOARD}/`)) throw new Error(`${path} is not a dashboard address`);
  return path.slice(DASHBOARD.length + 1);
}
