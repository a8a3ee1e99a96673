import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef } from 'react';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Row from 'react-bootstrap/Row';
import { Navigate, NavLink, Route, Routes, useLocation } from 'react-router';
import { LoadingSpinner } from '../../components/query-state.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { adminCheckQuery } from './accounts-api.ts';
import { useAuth } from './auth-context.tsx';
import { RequireAdmin } from './require-admin.tsx';
import './accounts.css';

const page = <T extends { Component: () => React.ReactNode }>(load: () => Promise<T>) =>
  lazy(() => load().then((m) => ({ default: m.Component })));

const MyOrders = page(() => import('../orders/my-orders-page.tsx'));
const AddReview = page(() => import('../reviews/add-review-page.tsx'));
const Payment = page(() => import('../payments/payment-page.tsx'));
const MyProfile = page(() => import('./my-profile-page.tsx'));
const Users = page(() => import('./users-page.tsx'));
const ManageProducts = page(() => import('../catalog/manage-products-page.tsx'));
const ManageOrders = page(() => import('../orders/manage-orders-page.tsx'));
const AddProduct = page(() => import('../catalog/add-product-page.tsx'));
const NotFound = page(() => import('../content/not-found-page.tsx'));

/** Spec §2: the side menu per role, in the spec's order. */
const customerMenu = [
  { to: '/dashboard/myorder', label: 'My Order' },
  { to: '/dashboard/addreview', label: 'Add Review' },
  { to: '/dashboard/myprofile', label: 'My Profile' },
];
const adminMenu = [
  { to: '/dashboard/myprofile', label: 'My Profile' },
  { to: '/dashboard/users', label: 'Users' },
  { to: '/dashboard/manageproduct', label: 'Manage Products' },
  { to: '/dashboard/manageorder', label: 'Manage Orders' },
  { to: '/dashboard/addaproduct', label: 'Add A Product' },
];

export function Component() {
  usePageTitle('Dashboard');
  const { user } = useAuth();
  const check = useQuery({ ...adminCheckQuery(user?.email ?? ''), enabled: Boolean(user) });
  // The server's answer wins; until it comes, the role the session reported at sign-in.
  const isAdmin = check.data?.admin ?? user?.isAdmin ?? false;
  const menu = isAdmin ? adminMenu : customerMenu;
  const admin = (element: React.ReactNode) => <RequireAdmin>{element}</RequireAdmin>;
  const { pathname } = useLocation();
  const menuRef = useRef<HTMLDivElement>(null);

  // On a phone the menu is one sideways-scrolling row: keep the current entry in view.
  useEffect(() => {
    const row = menuRef.current;
    const active = row?.querySelector<HTMLElement>(`a[href="${pathname}"]`);
    if (row && active && row.scrollWidth > row.clientWidth) row.scrollTo({ left: Math.max(0, active.offsetLeft - 16) });
  }, [pathname]);

  return (
    <Container className="py-4">
      <Row className="g-4">
        <Col md={4} lg={3}>
          <nav aria-labelledby="dashboard-menu-title" className="bg-white rounded shadow-sm p-2">
            <h2 id="dashboard-menu-title" className="h6 text-uppercase text-body-secondary px-2 pt-1 mb-2">
              Dashboard
            </h2>
            <Nav ref={menuRef} variant="pills" className="dashboard-menu flex-md-column gap-1">
              {menu.map((item) => (
                <Nav.Item key={item.to}>
                  <Nav.Link as={NavLink} to={item.to}>
                    {item.label}
                  </Nav.Link>
                </Nav.Item>
              ))}
            </Nav>
          </nav>
        </Col>
        <Col md={8} lg={9}>
          <Suspense fallback={<LoadingSpinner label="Loading…" />}>
            <Routes>
              <Route
                index
                element={<Navigate to={isAdmin ? '/dashboard/myprofile' : '/dashboard/myorder'} replace />}
              />
              <Route path="myorder" element={<MyOrders />} />
              <Route path="addreview" element={<AddReview />} />
              <Route path="payment/:id" element={<Payment />} />
              <Route path="myprofile" element={<MyProfile />} />
              <Route path="users" element={admin(<Users />)} />
              <Route path="manageproduct" element={admin(<ManageProducts />)} />
              <Route path="manageorder" element={admin(<ManageOrders />)} />
              <Route path="addaproduct" element={admin(<AddProduct />)} />
              <Route path="*" element={<NotFound />} />
            </Routes>
          </Suspense>
        </Col>
      </Row>
    </Container>
  );
}
