import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { RequireAuth } from '../features/accounts/require-auth.tsx';
import { SessionEndedRedirect } from '../features/accounts/session-ended-redirect.tsx';
import { queryClient } from '../lib/query-client.ts';
import { RootLayout } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';

/**
 * Every route of spec §2. Page modules are lazy (each exports `Component`), so the home page downloads only
 * what it shows. Signed-in pages are wrapped in RequireAuth; the dashboard guards its admin pages itself.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <AppShell />,
    errorElement: <RouteError />,
    children: [
      {
        index: true,
        lazy: () => {
          preloadImage(HOME_HERO_IMAGE);
          return import('../features/catalog/home-page.tsx');
        },
      },
      {
        element: <RequireAuthOutlet />,
        children: [
          {
            path: 'allparts',
            lazy: () => {
              prefetchFirstPartsPage();
              return import('../features/catalog/parts-page.tsx');
            },
          },
          { path: 'part/:partId', lazy: () => import('../features/catalog/purchase-page.tsx') },
          {
            path: 'dashboard/*',
            lazy: () => import('../features/accounts/dashboard-page.tsx'),
          },
        ],
      },
      { path: 'myprotfolio', lazy: () => import('../features/content/portfolio-page.tsx') },
      { path: 'blog', lazy: () => import('../features/content/blog-page.tsx') },
      { path: 'login', lazy: () => import('../features/accounts/login-page.tsx') },
      { path: 'register', lazy: () => import('../features/accounts/register-page.tsx') },
      { path: 'auth/callback', lazy: () => import('../features/accounts/auth-callback-page.tsx') },
      { path: '*', lazy: () => import('../features/content/not-found-page.tsx') },
    ],
  },
];

/**
 * The home page's Largest Contentful Paint is its hero banner. The page only names it once its chunk has arrived
 * and rendered; asking for it here, as the route starts loading, fetches it alongside that chunk instead of after.
 * Keep in step with the <img> in features/catalog/home-page.tsx.
 */
const HOME_HERO_IMAGE = '/images/home/hero-banner.svg';

function preloadImage(href: string) {
  if (document.head.querySelector(`link[rel="preload"][href="${href}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.href = href;
  link.fetchPriority = 'high';
  document.head.append(link);
}

/**
 * The parts list waits for the sign-in check (GET /api/me) before it renders and asks for its first page; the list
 * itself is public data, so it is fetched alongside the check instead of after it. Only the plain /allparts (no
 * search, sort or page in the URL): the query key must be exactly the one parts-page.tsx builds, or this is a
 * wasted request.
 */
function prefetchFirstPartsPage() {
  if (window.location.pathname !== '/allparts' || window.location.search !== '') return;
  void Promise.all([import('../features/catalog/parts-api.ts'), import('../features/catalog/catalog-search.tsx')]).then(
    ([{ partsQueryOptions }, { PAGE_SIZE }]) =>
      queryClient.prefetchQuery(partsQueryOptions({ q: undefined, sort: undefined, limit: PAGE_SIZE, offset: 0 })),
  );
}

/** The layout, plus the watcher that sends the user to /login when a session ends under them (a 401). */
function AppShell() {
  return (
    <>
      <SessionEndedRedirect />
      <RootLayout />
    </>
  );
}

function RequireAuthOutlet() {
  return (
    <RequireAuth>
      <Outlet />
    </RequireAuth>
  );
}

export function createAppRouter() {
  return createBrowserRouter(routes);
}
