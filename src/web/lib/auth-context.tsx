import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { Me } from '../../shared/schemas/accounts.ts';
import { ApiError, api, onUnauthorized } from './api-client.ts';
import { clearToken, readToken, storeToken } from './auth-token.ts';
import { useHydrated } from './hydration.ts';
import { queryClient } from './query-client.ts';

/**
 * Who is signed in, as GET /api/me and every sign-in answer say (email verified, has a password…). Not parsed
 * with the schema here: that would put the shared schemas in the first chunk every visitor downloads.
 */
type AuthUser = Me;

type AuthStatus = 'loading' | 'signed-in' | 'signed-out';
/**
 * Why a signed-in user is signed out: Log Out (goes home), an admin page a non-admin opened, or Sign Out
 * Everywhere (both go to /login, which says why).
 */
export type SignOutReason = 'log-out' | 'not-allowed' | 'signed-out-everywhere';

interface AuthState {
  status: AuthStatus;
  user: AuthUser | null;
  /** Stores the token (localStorage.accessToken, spec §3) and the user after a proven sign-in. */
  signIn(token: string, user: AuthUser): void;
  /**
   * Revokes the token on the server, removes it from local storage and forgets cached data. `reason` tells a
   * signed-in page where to go: home after Log Out, /login (with the page kept) when the user may not be there.
   */
  signOut(reason?: SignOutReason, options?: { alreadyRevoked?: boolean }): Promise<void>;
  /** Asks the server again who is signed in (after verifying the email, say) and keeps the answer. */
  refreshUser(): Promise<void>;
  /**
   * Counts sessions that ended under a signed-in user (an API call answered 401): a component inside the router
   * watches it and sends the user to /login with the page they were on.
   */
  sessionEnded: number;
  /** Why the user is signed out now (null at start-up or after a sign-in). */
  signOutReason: SignOutReason | 'session-ended' | null;
  /** The path the user was on when they signed out, so only that page reacts to the reason. */
  signedOutFrom: string | null;
}

const AuthContext = createContext<AuthState | null>(null);

/** GET /api/me tries before a page gives up on a stored sign-in it could not check (1 s, then 2 s apart). */
const ME_ATTEMPTS = 3;

export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<AuthUser | null>(null);
  const [status, setStatus] = useState<AuthStatus>(() => (readToken() ? 'loading' : 'signed-out'));
  const [sessionEnded, setSessionEnded] = useState(0);
  const [signOutReason, setSignOutReason] = useState<AuthState['signOutReason']>(null);
  const [signedOutFrom, setSignedOutFrom] = useState<string | null>(null);
  const statusRef = useRef(status);
  const signingOut = useRef(false);
  statusRef.current = status;

  const forget = useCallback(() => {
    clearToken();
    statusRef.current = 'signed-out';
    setUser(null);
    setStatus('signed-out');
    queryClient.clear();
  }, []);

  // A stored token is only a claim: ask the server who it belongs to before showing the user as signed in. Only the
  // server's "no" (401, which signs out through onUnauthorized below) forgets it. A request that failed otherwise (the
  // visitor went on to another page meanwhile, the network dropped, the shop answered 503) is asked again; if it keeps
  // failing, this page shows the visitor signed out and the stored sign-in stays for the next page.
  useEffect(() => {
    if (status !== 'loading') return;
    let cancelled = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const ask = (attempt: number) => {
      api<AuthUser>('/me')
        .then((me) => {
          if (cancelled) return;
          setUser(me);
          setStatus('signed-in');
        })
        .catch((error: unknown) => {
          if (cancelled) return;
          if (error instanceof ApiError && error.status === 401) {
            forget();
          } else if (attempt < ME_ATTEMPTS) {
            retry = setTimeout(() => ask(attempt + 1), attempt * 1000);
          } else {
            statusRef.current = 'signed-out';
            setStatus('signed-out');
          }
        });
    };
    ask(1);
    return () => {
      cancelled = true;
      clearTimeout(retry);
    };
  }, [status, forget]);

  // A stale token found at start-up just signs out quietly; a session that ends while in use sends to /login.
  useEffect(
    () =>
      onUnauthorized(() => {
        // Requests still in flight when Log Out revokes the token answer 401 too: that is not a session ending.
        if (signingOut.current) return;
        const wasSignedIn = statusRef.current === 'signed-in';
        forget();
        if (wasSignedIn) {
          setSignOutReason('session-ended');
          setSignedOutFrom(window.location.pathname);
          setSessionEnded((n) => n + 1);
        }
      }),
    [forget],
  );

  const signIn = useCallback((token: string, next: AuthUser) => {
    storeToken(token);
    setSignOutReason(null);
    setUser(next);
    setStatus('signed-in');
  }, []);

  const signOut = useCallback(
    async (reason: SignOutReason = 'log-out', options: { alreadyRevoked?: boolean } = {}) => {
      signingOut.current = true;
      try {
        if (readToken() && !options.alreadyRevoked) await api('/logout', { method: 'POST' }).catch(() => {});
      } finally {
        setSignOutReason(reason);
        setSignedOutFrom(window.location.pathname);
        forget();
        signingOut.current = false;
      }
    },
    [forget],
  );

  const refreshUser = useCallback(async () => {
    if (!readToken()) return;
    const me = await api<AuthUser>('/me');
    if (statusRef.current === 'signed-in') setUser(me);
  }, []);

  // A server-rendered page was rendered for a visitor (the server never sees the stored token): its hydration renders
  // as that visitor too, and the stored sign-in shows from the next render on.
  const hydrated = useHydrated();
  const shownStatus = hydrated ? status : 'signed-out';
  const shownUser = hydrated ? user : null;
  const value = useMemo(
    () => ({
      status: shownStatus,
      user: shownUser,
      signIn,
      signOut,
      refreshUser,
      sessionEnded,
      signOutReason,
      signedOutFrom,
    }),
    [shownStatus, shownUser, signIn, signOut, refreshUser, sessionEnded, signOutReason, signedOutFrom],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used inside <AuthProvider>');
  return context;
}
