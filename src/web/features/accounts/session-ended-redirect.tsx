import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { isAdminPath, paths } from '../../../shared/paths.ts';
import { useAuth } from '../../lib/auth-context.tsx';

/** Why the login page was opened, when it was not the visitor's own idea; the page says it. */
export type LoginNotice = 'session-ended' | 'not-allowed' | 'signed-out-everywhere';

export interface LoginLocationState {
  from?: { pathname: string; search?: string; hash?: string };
  notice?: LoginNotice;
}

/**
 * Design §2: a 401 anywhere signs out and sends the user to /login, keeping the page they were on so a fresh
 * sign-in brings them back. Lives inside the router; the auth context only counts ended sessions.
 */
export function SessionEndedRedirect() {
  const { sessionEnded } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const handled = useRef(sessionEnded);

  useEffect(() => {
    if (sessionEnded === handled.current) return;
    handled.current = sessionEnded;
    if (location.pathname === paths.login) return;
    const state: LoginLocationState = { from: location, notice: 'session-ended' };
    navigate(paths.login, { replace: true, state });
  }, [sessionEnded, location, navigate]);

  return null;
}

const signInPages: string[] = [
  paths.login,
  paths.register,
  paths.authCallback,
  paths.forgotPassword,
  paths.resetPassword,
  paths.verifyEmail,
];

/** The page to return to after signing in: where RequireAuth or a 401 sent the user from, else the home page. */
export function returnPath(state: unknown): string {
  const from = (state as LoginLocationState | null)?.from;
  if (!from?.pathname?.startsWith('/') || from.pathname.startsWith('//')) return paths.home;
  if (signInPages.includes(from.pathname)) return paths.home;
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

/**
 * Where a user who just signed in goes: back to `path`, except that an admin page would sign a non-admin out again
 * at once, in a loop, so a non-admin goes home instead.
 */
export function afterSignIn(path: string, user: { isAdmin: boolean }): string {
  if (user.isAdmin) return path;
  return isAdminPath(path.split(/[?#]/)[0] ?? '') ? paths.home : path;
}
