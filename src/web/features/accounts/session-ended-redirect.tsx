import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAuth } from '../../lib/auth-context.tsx';
import { paths } from '../../lib/paths.ts';

export interface LoginLocationState {
  from?: { pathname: string; search?: string; hash?: string };
  sessionEnded?: boolean;
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
    const state: LoginLocationState = { from: location, sessionEnded: true };
    navigate(paths.login, { replace: true, state });
  }, [sessionEnded, location, navigate]);

  return null;
}

const signInPages: string[] = [paths.login, paths.register, paths.authCallback];

/** The page to return to after signing in: where RequireAuth or a 401 sent the user from, else the home page. */
export function returnPath(state: unknown): string {
  const from = (state as LoginLocationState | null)?.from;
  if (!from?.pathname?.startsWith('/') || from.pathname.startsWith('//')) return paths.home;
  if (signInPages.includes(from.pathname)) return paths.home;
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}
