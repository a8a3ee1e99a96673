import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { LoadingSpinner } from '../components/query-state.tsx';
import { useAuth } from '../lib/auth-context.tsx';
import { useFocusAfterNavigation } from './focus-after-navigation.ts';
import { ShoppingForBar } from './shopping-for-bar.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteNavbar } from './site-navbar.tsx';

/**
 * The toast container and its stylesheet arrive after the page has loaded, not on the way to the first paint: no
 * page shows a toast before the visitor has done something. A toast raised earlier is not lost: react-toastify
 * queues toasts until a container mounts, then shows them.
 */
const ToastContainer = lazy(async () => {
  const [toastify] = await Promise.all([import('react-toastify/unstyled'), import('react-toastify/ReactToastify.css')]);
  return { default: toastify.ToastContainer };
});

/** Only users who have not verified their email yet download the banner that asks them to. */
const VerifyEmailBanner = lazy(async () => {
  const banner = await import('../features/accounts/verify-email-banner.tsx');
  return { default: banner.VerifyEmailBanner };
});

function useAfterLoad(): boolean {
  const [ready, setReady] = useState(false);
  // An effect: it runs once the page is hydrated, never in the render that hydrates it.
  useEffect(() => {
    const idle = () => {
      if ('requestIdleCallback' in window) window.requestIdleCallback(() => setReady(true), { timeout: 1000 });
      else setTimeout(() => setReady(true), 200);
    };
    if (document.readyState === 'complete') {
      idle();
      return;
    }
    window.addEventListener('load', idle, { once: true });
    return () => window.removeEventListener('load', idle);
  }, []);
  return ready;
}

export function RootLayout() {
  const toastsReady = useAfterLoad();
  const { user } = useAuth();
  const main = useRef<HTMLElement>(null);
  useFocusAfterNavigation(main);
  return (
    <div className="d-flex flex-column min-vh-100">
      <a className="visually-hidden-focusable skip-link" href="#main">
        Skip to content
      </a>
      <Suspense fallback={null}>
        <SiteNavbar />
      </Suspense>
      <ShoppingForBar />
      {user?.emailVerified === false ? (
        <Suspense fallback={null}>
          <VerifyEmailBanner />
        </Suspense>
      ) : null}
      <main ref={main} id="main" className="flex-grow-1" tabIndex={-1}>
        <Suspense fallback={<LoadingSpinner label="Loading…" page />}>
          <Outlet />
        </Suspense>
      </main>
      {/* Its own boundary: React hydrates it after the page, in short tasks (ADR 024). */}
      <Suspense fallback={null}>
        <SiteFooter />
      </Suspense>
      {/* Spec §9: top right, 5000 ms, draggable, removed after dragging 80 % of its width. */}
      {toastsReady && (
        <Suspense fallback={null}>
          <ToastContainer position="top-right" autoClose={5000} draggable draggablePercent={80} newestOnTop />
        </Suspense>
      )}
      <ScrollRestoration />
    </div>
  );
}
