import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { RequireAuth } from '../features/accounts/require-auth.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';

/**
 * Every route of spec §2. Page modules are lazy (each exports `Component`), so the home page downloads only
 * what it shows. Signed-in pages are wrapped in RequireAuth; the dashboard guards its admin pages itself.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
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
      { path: '*', lazy: () => import('../features/content/not-found-page.tsx') },
    ],
  },
];

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
