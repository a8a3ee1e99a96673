import type { ComponentType } from 'react';
import {
  createBrowserRouter,
  type HydrationState,
  type LoaderFunctionArgs,
  matchRoutes,
  Outlet,
  type RouteObject,
} from 'react-router';
import { paths, routePatterns } from '../../shared/paths.ts';
import { LoadingSpinner } from '../components/query-state.tsx';
import { RequireAuth } from '../features/accounts/require-auth.tsx';
import { SessionEndedRedirect } from '../features/accounts/session-ended-redirect.tsx';
import { readLastVehicle } from '../lib/current-vehicle.tsx';
import { queryClient } from '../lib/query-client.ts';
import { CartProvider } from './cart-provider.tsx';
import { GarageProvider } from './garage-provider.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';
import { HOME_HERO_IMAGE } from './routes/home-hero.ts';

/**
 * Every route of spec §2. Page modules are lazy (each exports `Component`), so the home page downloads only
 * what it shows. Signed-in pages are wrapped in RequireAuth; the dashboard guards its admin pages itself.
 */
export const routes: RouteObject[] = [
  {
    path: paths.home,
    element: <AppShell />,
    errorElement: <RouteError />,
    children: withHydrateFallbacks([
      {
        index: true,
        lazy: () => {
          if (inBrowser()) preloadImage(HOME_HERO_IMAGE);
          return import('./routes/home-page.tsx');
        },
      },
      // Spec §1: visitors browse the catalogue; Place Order, the cart's Checkout and paying ask them to
      // sign in (docs/spec-deviations.md).
      {
        path: paths.parts,
        loader: prefetchPartsPage,
        lazy: () => import('./routes/parts-route.tsx'),
      },
      {
        path: routePatterns.part,
        loader: prefetchPart,
        lazy: () => import('./routes/purchase-route.tsx'),
      },
      { path: paths.cart, lazy: () => import('./routes/cart-route.tsx') },
      {
        element: <RequireAuthOutlet />,
        children: [
          { path: paths.checkout, lazy: () => import('./routes/checkout-route.tsx') },
          { path: `${paths.dashboard.root}/*`, lazy: () => import('./routes/dashboard-page.tsx') },
        ],
      },
      { path: paths.portfolio, lazy: () => import('../features/content/portfolio-page.tsx') },
      { path: paths.blog, lazy: () => import('../features/content/blog-page.tsx') },
      { path: paths.login, lazy: () => import('../features/accounts/login-page.tsx') },
      { path: paths.register, lazy: () => import('../features/accounts/register-page.tsx') },
      { path: paths.authCallback, lazy: () => import('../features/accounts/auth-callback-page.tsx') },
      { path: paths.forgotPassword, lazy: () => import('../features/accounts/forgot-password-page.tsx') },
      { path: paths.resetPassword, lazy: () => import('../features/accounts/reset-password-page.tsx') },
      { path: paths.verifyEmail, lazy: () => import('../features/accounts/verify-email-page.tsx') },
      { path: '*', lazy: () => import('../features/content/not-found-page.tsx') },
    ]),
  },
];

/**
 * A page the browser renders itself (a signed-in page, or any page when the server sent only the shell) starts
 * before its lazy module has arrived. The router then renders the deepest route with a `HydrateFallback` in its
 * place (and warns in the console when there is none): here every lazy page has one, so the layout (navbar, footer)
 * shows at once, with the page's loading state where the page will be. A server-rendered page is never in this
 * state: `prepareMatchedRoutes` loads its modules before hydrating.
 */
function withHydrateFallbacks(children: RouteObject[]): RouteObject[] {
  return children.map((route) => ({
    ...route,
    ...(route.lazy ? { HydrateFallback: PageLoading } : {}),
    ...(route.children ? { children: withHydrateFallbacks(route.children) } : {}),
  })) as RouteObject[];
}

function PageLoading() {
  return <LoadingSpinner label="Loading…" page />;
}

/**
 * The home page's Largest Contentful Paint is its hero banner. The page only names it once its chunk has arrived
 * and rendered; asking for it here, as the route starts loading, fetches it alongside that chunk instead of after.
 */
function preloadImage(href: string) {
  if (document.head.querySelector(`link[rel="preload"][href="${href}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.href = href;
  link.fetchPriority = 'high';
  document.head.append(link);
}

/*
 * Loaders that start a page's first request as its route starts loading. The signed-in pages wait for the sign-in
 * check (GET /api/me) before they render and ask; the catalogue is public data, so it is fetched alongside the
 * check instead of after it. The query options come from the very function the page calls, so the page finds this
 * request in the cache instead of making its own. A loader does not wait for it: the page shows its own loading
 * state. The modules are imported here, not at the top, to keep them out of the first chunk.
 */

/**
 * /allparts with whatever search, order, page and filters its URL holds, for the vehicle last shown as current in
 * this browser (the garage confirms it, and the page asks again if it differs).
 */
function prefetchPartsPage({ request }: LoaderFunctionArgs) {
  // On the server the page's data is fetched by entry-server.tsx into the request's own query client.
  if (!inBrowser()) return null;
  const search = new URL(request.url).searchParams;
  const vehicleId = readLastVehicle()?.id;
  void import('../features/catalog/catalog-search-params.ts').then(
    ({ catalogFacetsQueryOptions, catalogPageQueryOptions, readCatalogSearch }) => {
      const state = readCatalogSearch(search);
      void queryClient.prefetchQuery(catalogPageQueryOptions(state, vehicleId));
      void queryClient.prefetchQuery(catalogFacetsQueryOptions(state, vehicleId));
    },
  );
  return null;
}

/** /part/{partId}: the part the purchase screen shows, with whether it fits the vehicle last shown as current. */
function prefetchPart({ params }: LoaderFunctionArgs) {
  if (!inBrowser()) return null;
  const partId = params.partId ?? '';
  const vehicleId = readLastVehicle()?.id;
  void import('../features/catalog/parts-api.ts').then(({ partQueryOptions }) =>
    queryClient.prefetchQuery(partQueryOptions(partId, vehicleId)),
  );
  return null;
}

/**
 * The layout, plus the watcher that sends the user to /login when a session ends under them (a 401), inside the
 * garage every page reads the shopper's vehicle from.
 */
function AppShell() {
  return (
    <GarageProvider>
      <CartProvider>
        <SessionEndedRedirect />
        <RootLayout />
      </CartProvider>
    </GarageProvider>
  );
}

function RequireAuthOutlet() {
  return (
    <RequireAuth>
      <Outlet />
    </RequireAuth>
  );
}

/** The routes also run on the server (entry-server.tsx), where there is no document and no localStorage. */
function inBrowser(): boolean {
  return typeof document !== 'undefined';
}

/**
 * Before a server-rendered page is hydrated: the modules of the lazy routes of the page the browser is on are loaded
 * (the server's `<link rel="modulepreload">` has already asked for them) and become the routes' components. The router
 * started with a `lazy` route still to load would render nothing at all where the server's HTML is.
 */
export async function prepareMatchedRoutes(): Promise<void> {
  const matched = (matchRoutes(routes, window.location) ?? []).map(({ route }) => route);
  await Promise.all(
    matched.map(async (route) => {
      const load = route.lazy;
      if (typeof load !== 'function') return;
      const module = (await load()) as { Component?: ComponentType };
      if (!module.Component) throw new Error(`The route ${route.path ?? '/'} has no Component`);
      Object.assign(route, { Component: module.Component, lazy: undefined });
    }),
  );
}

/** The browser's router; `hydrationData` is what the server's router rendered a server-rendered page with. */
export function createAppRouter(hydrationData?: HydrationState) {
  return createBrowserRouter(routes, hydrationData ? { hydrationData } : undefined);
}
