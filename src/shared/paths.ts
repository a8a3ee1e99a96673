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
  /** The cart (visitors too) and its checkout (signed in). */
  cart: '/cart',
  checkout: '/checkout',
  portfolio: '/myprotfolio',
  blog: '/blog',
  login: '/login',
  register: '/register',
  authCallback: '/auth/callback',
  /** 'Forgot Password?', and the pages the account mails link to (the token rides in the fragment). */
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  dashboard: {
    root: DASHBOARD,
    myOrder: `${DASHBOARD}/myorder`,
    addReview: `${DASHBOARD}/addreview`,
    payment: (orderId: string) => `${DASHBOARD}/payment/${orderId}`,
    /** The order page (its buyer or an admin); the order mails link here too. */
    order: (orderId: string) => `${DASHBOARD}/order/${orderId}`,
    /** One payment for several orders (a checkout's, or Pay All Unpaid). */
    payOrders: (orderIds: readonly string[]) =>
      `${DASHBOARD}/pay?${new URLSearchParams({ orders: orderIds.join(',') })}`,
    payOrdersRoute: `${DASHBOARD}/pay`,
    myProfile: `${DASHBOARD}/myprofile`,
    users: `${DASHBOARD}/users`,
    manageProducts: `${DASHBOARD}/manageproduct`,
    manageOrders: `${DASHBOARD}/manageorder`,
    addProduct: `${DASHBOARD}/addaproduct`,
    jobs: `${DASHBOARD}/jobs`,
    /** The customer's vehicles, and the admin's makes, models and years. */
    myGarage: `${DASHBOARD}/mygarage`,
    vehicles: `${DASHBOARD}/vehicles`,
    /** CSV import of products, and export of products and orders. */
    importProducts: `${DASHBOARD}/importproducts`,
  },
} as const;

/** The dashboard pages only administrators may open (spec §2), plus the jobs panel. */
const adminPaths: readonly string[] = [
  paths.dashboard.users,
  paths.dashboard.manageProducts,
  paths.dashboard.manageOrders,
  paths.dashboard.addProduct,
  paths.dashboard.jobs,
  paths.dashboard.vehicles,
  paths.dashboard.importProducts,
];

/** Whether a path is an admin page: a non-admin is never sent back to one after signing in. */
export function isAdminPath(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '').toLowerCase();
  return adminPaths.includes(path);
}

/** The patterns of the addresses that carry an id, built by the same functions the links use. */
export const routePatterns = {
  part: paths.part(':partId'),
  payment: paths.dashboard.payment(':orderId'),
  order: paths.dashboard.order(':orderId'),
} as const;

/** A dashboard address as the dashboard's own nested routes match it: relative to /dashboard. */
export function dashboardRoute(path: string): string {
  if (!path.startsWith(`${DASHBOARD}/`)) throw new Error(`${path} is not a dashboard address`);
  return path.slice(DASHBOARD.length + 1);
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** Every page address without an id, as the router matches it (the dashboard's nested pages included). */
const staticPages: ReadonlySet<string> = new Set(
  [...Object.values<unknown>(paths).filter(isString), ...Object.values<unknown>(paths.dashboard).filter(isString)].map(
    (page) => page.toLowerCase(),
  ),
);

/** The addresses that carry an id, as patterns: `:name` stands for one segment. */
const idPages = Object.values(routePatterns).map(
  (pattern) => new RegExp(`^${pattern.toLowerCase().replace(/:[a-z]+/gi, '[^/]+')}$`),
);

/**
 * Whether a path is one of the web app's pages (any other address answers 404, with the app's not-found
 * page, so crawlers and links see a real "not found"). Matched as the router matches: case-insensitive, a trailing
 * slash ignored, the query left aside.
 */
export function isPagePath(pathname: string): boolean {
  const page = (pathname.split('?')[0] ?? '').replace(/\/+$/, '').toLowerCase() || '/';
  return staticPages.has(page) || idPages.some((pattern) => pattern.test(page));
}
