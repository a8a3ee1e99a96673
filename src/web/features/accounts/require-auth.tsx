import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { LoadingSpinner } from '../../components/query-state.tsx';
import { useAuth } from '../../lib/auth-context.tsx';
import type { LoginLocationState } from './session-ended-redirect.tsx';

/** Pages that need a signed-in user send visitors to /login, remembering where they were going. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status, signOutReason, signedOutFrom } = useAuth();
  const location = useLocation();
  if (status === 'loading') {
    return <LoadingSpinner label="Checking your sign-in…" page />;
  }
  if (status === 'signed-out') {
    // Log Out on a signed-in page goes home, as it does anywhere else; any later visit asks to log in.
    const here = signedOutFrom === location.pathname;
    if (here && signOutReason === 'log-out') return <Navigate to={paths.home} replace />;
    // Signed out on this very page for a reason (not Log Out): the login page says which.
    const notice = here && signOutReason !== null && signOutReason !== 'log-out' ? signOutReason : undefined;
    const state: LoginLocationState = { from: location, notice };
    return <Navigate to={paths.login} replace state={state} />;
  }
  return children;
}
