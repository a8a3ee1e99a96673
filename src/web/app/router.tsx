import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { RequireAuth } from '../features/accounts/require-auth.tsx';
import { SessionEndedRedirect } from '../features/accounts/session-ended-redirect.tsx';
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
      { index: true, lazy: () => import('../features/catalog/home-page.tsx') },
      {
        element: <RequireAuthOutlet />,
        children: [
          { path: 'allparts', lazy: () => import('../features/catalog/parts-page.tsx') },
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
