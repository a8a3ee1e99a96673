import { useQuery } from '@tanstack/react-query';
import {
  type ComponentType,
  type KeyboardEvent,
  lazy,
  type ReactNode,
  Suspense,
  useEffect,
  useRef,
  useState,
} from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Row from 'react-bootstrap/Row';
import { Navigate, NavLink, Route, Routes, useLocation } from 'react-router';
import { dashboardRoute, paths, routePatterns } from '../../../shared/paths.ts';
import { LoadingSpinner } from '../../components/query-state.tsx';
import { adminCheckQuery } from '../../features/accounts/accounts-api.ts';
import { RequireAdmin } from '../../features/accounts/require-admin.tsx';
import { useAuth } from '../../lib/auth-context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import './dashboard.css';

/** A page module, loaded the first time its dashboard entry is opened. */
const page = (load: () => Promise<{ Component: ComponentType }>) =>
  lazy(() => load().then((module) => ({ default: module.Component })));

const MyOrders = page(() => import('../../features/orders/my-orders-page.tsx'));
const AddReview = page(() => import('../../features/reviews/add-review-page.tsx'));
const Payment = page(() => import('./payment-route.tsx'));
const OrderDetail = page(() => import('../../features/orders/order-page.tsx'));
const GroupPayment = page(() => import('./group-payment-route.tsx'));
const MyProfile = page(() => import('./my-profile-route.tsx'));
const Users = page(() => import('../../features/accounts/users-page.tsx'));
const ManageProducts = page(() => import('../../features/catalog/manage-products-page.tsx'));
const ManageOrders = page(() => import('../../features/orders/manage-orders-page.tsx'));
const AddProduct = page(() => import('../../features/catalog/add-product-page.tsx'));
const Jobs = page(() => import('../../features/jobs/jobs-page.tsx'));
const MyGarage = page(() => import('../../features/fitment/my-garage-page.tsx'));
const Vehicles = page(() => import('../../features/fitment/vehicles-admin-page.tsx'));
const ImportProducts = page(() => import('../../features/catalog-transfer/import-products-page.tsx'));
const NotFound = page(() => import('../../features/content/not-found-page.tsx'));

/**
 * Spec §2: the side menu per role, in the spec's order; Jobs, Vehicles and My Garage, which the spec does not
 * list, come after the spec's pages.
 */
const customerMenu = [
  { to: paths.dashboard.myOrder, label: 'My Order' },
  { to: paths.dashboard.addReview, label: 'Add Review' },
  { to: paths.dashboard.myProfile, label: 'My Profile' },
  { to: paths.dashboard.myGarage, label: 'My Garage' },
];
const adminMenu = [
  { to: paths.dashboard.myProfile, label: 'My Profile' },
  { to: paths.dashboard.users, label: 'Users' },
  { to: paths.dashboard.manageProducts, label: 'Manage Products' },
  { to: paths.dashboard.manageOrders, label: 'Manage Orders' },
  { to: paths.dashboard.addProduct, label: 'Add A Product' },
  { to: paths.dashboard.importProducts, label: 'Import Products' },
  { to: paths.dashboard.jobs, label: 'Jobs' },
  { to: paths.dashboard.vehicles, label: 'Vehicles' },
  { to: paths.dashboard.myGarage, label: 'My Garage' },
];

/** The dashboard (spec §2): the side menu for the user's role beside the nested page it has open. */
export function Component() {
  usePageTitle('Dashboard');
  const { user } = useAuth();
  const check = useQuery({ ...adminCheckQuery(user?.email ?? ''), enabled: Boolean(user) });
  // The server's answer wins; until it comes, the role the session reported at sign-in.
  const isAdmin = check.data?.admin ?? user?.isAdmin ?? false;
  const menu = isAdmin ? adminMenu : customerMenu;
  const admin = (element: ReactNode) => <RequireAdmin>{element}</RequireAdmin>;
  return (
    <Container className="py-4">
      <Row className="g-4">
        <Col md={4} lg={3}>
          <DashboardMenu menu={menu} />
        </Col>
        <Col md={8} lg={9}>
          <Suspense fallback={<LoadingSpinner label="Loading…" />}>
            <Routes>
              <Route
                index
                element={<Navigate to={isAdmin ? paths.dashboard.myProfile : paths.dashboard.myOrder} replace />}
              />
              <Route path={dashboardRoute(paths.dashboard.myOrder)} element={<MyOrders />} />
              <Route path={dashboardRoute(paths.dashboard.addReview)} element={<AddReview />} />
              <Route path={dashboardRoute(routePatterns.payment)} element={<Payment />} />
              <Route path={dashboardRoute(routePatterns.order)} element={<OrderDetail />} />
              <Route path={dashboardRoute(paths.dashboard.payOrdersRoute)} element={<GroupPayment />} />
              <Route path={dashboardRoute(paths.dashboard.myProfile)} element={<MyProfile />} />
              <Route path={dashboardRoute(paths.dashboard.users)} element={admin(<Users />)} />
              <Route path={dashboardRoute(paths.dashboard.manageProducts)} element={admin(<ManageProducts />)} />
              <Route path={dashboardRoute(paths.dashboard.manageOrders)} element={admin(<ManageOrders />)} />
              <Route path={dashboardRoute(paths.dashboard.addProduct)} element={admin(<AddProduct />)} />
              <Route path={dashboardRoute(paths.dashboard.jobs)} element={admin(<Jobs />)} />
              <Route path={dashboardRoute(paths.dashboard.vehicles)} element={admin(<Vehicles />)} />
              <Route path={dashboardRoute(paths.dashboard.importProducts)} element={admin(<ImportProducts />)} />
              <Route path={dashboardRoute(paths.dashboard.myGarage)} element={<MyGarage />} />
              <Route path="*" element={<NotFound />} />
            </Routes>
          </Suspense>
        </Col>
      </Row>
    </Container>
  );
}

/**
 * The side menu beside the page from the md breakpoint up. On a phone it is a disclosure: one button that names the
 * open entry and shows every entry as a list under it when pressed (a sideways strip showed two of them), closed
 * again once an entry is chosen or on Escape.
 */
function DashboardMenu({ menu }: { menu: { to: string; label: string }[] }) {
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const current = menu.find((item) => pathname === item.to || pathname.startsWith(`${item.to}/`));

  // The chosen entry's page is what the person wants to see next, not the list.
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes on every change of page
  useEffect(() => setOpen(false), [pathname]);

  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    setOpen(false);
    toggle.current?.focus();
  };

  return (
    <nav aria-labelledby="dashboard-menu-title" className="bg-white rounded shadow-sm p-2" onKeyDown={closeOnEscape}>
      <h2
        id="dashboard-menu-title"
        className="dashboard-menu-title h6 text-uppercase text-body-secondary px-2 pt-1 mb-2"
      >
        Dashboard
      </h2>
      <Button
        ref={toggle}
        variant="outline-secondary"
        className="dashboard-menu-toggle w-100 text-start"
        aria-expanded={open}
        aria-controls="dashboard-menu"
        onClick={() => setOpen((shown) => !shown)}
      >
        Dashboard menu {current ? <span className="dashboard-menu-current">{current.label}</span> : null}
      </Button>
      <Nav id="dashboard-menu" variant="pills" className={`dashboard-menu flex-column gap-1${open ? ' is-open' : ''}`}>
        {menu.map((item) => (
          <Nav.Item key={item.to}>
            <Nav.Link as={NavLink} to={item.to}>
              {item.label}
            </Nav.Link>
          </Nav.Item>
        ))}
      </Nav>
    </nav>
  );
}
