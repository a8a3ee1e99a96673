import { Suspense } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import { Outlet, ScrollRestoration } from 'react-router';
import { ToastContainer } from 'react-toastify/unstyled';
import { SiteFooter } from './site-footer.tsx';
import { SiteNavbar } from './site-navbar.tsx';

export function PageSpinner() {
  return (
    <div className="d-flex justify-content-center py-5">
      <Spinner animation="border" role="status">
        <span className="visually-hidden">Loading…</span>
      </Spinner>
    </div>
  );
}

export function RootLayout() {
  return (
    <div className="d-flex flex-column min-vh-100">
      <a className="visually-hidden-focusable skip-link" href="#main">
        Skip to content
      </a>
      <SiteNavbar />
      <main id="main" className="flex-grow-1" tabIndex={-1}>
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
      {/* Spec §9: top right, 5000 ms, draggable, removed after dragging 80 % of its width. */}
      <ToastContainer position="top-right" autoClose={5000} draggable draggablePercent={80} newestOnTop />
      <ScrollRestoration />
    </div>
  );
}
