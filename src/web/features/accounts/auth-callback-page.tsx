import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { Link, useNavigate } from 'react-router';
import { type GoogleSignInErrorCode, googleSignInErrors, googleSignInFailed } from '../../../shared/messages.ts';
import { paths } from '../../../shared/paths.ts';
import { type AuthResponse, safeReturnTo } from '../../../shared/schemas/accounts.ts';
import { LoadingSpinner } from '../../components/query-state.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { readToken } from '../../lib/auth-token.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { redeemGoogleCode, revokeToken } from './accounts-api.ts';
import { AuthCard } from './auth-card.tsx';
import { afterSignIn } from './session-ended-redirect.tsx';
import { useLinkFragment } from './use-link-fragment.ts';

/** Only the sentence of a code the server may send; never text from the URL (L4). */
function callbackError(code: string | null): string {
  if (code && Object.hasOwn(googleSignInErrors, code)) return googleSignInErrors[code as GoogleSignInErrorCode];
  return googleSignInFailed;
}

/**
 * Where Google sign-in lands. The server put a one-time code (or an error code) in the URL fragment, which browsers
 * never send to a server. The code becomes a session only in the browser that started the sign-in (the server
 * checks its cookie), so a link someone else sends cannot sign anyone in (H2). A bearer token in the fragment is
 * ignored: that is how such links used to work. Someone already signed in as another user is asked first.
 */
export function Component() {
  usePageTitle('Signing In');
  const { status, user, signIn } = useAuth();
  const navigate = useNavigate();
  const fragment = useLinkFragment();
  const code = fragment.get('code');
  const returnTo = safeReturnTo(fragment.get('returnTo'));
  const [error, setError] = useState<string | null>(() => (code ? null : callbackError(fragment.get('error'))));
  const [redeemed, setRedeemed] = useState<AuthResponse | null>(null);
  const [switchConfirmed, setSwitchConfirmed] = useState(false);
  const [busy, setBusy] = useState(false);
  const started = useRef(false);
  const finished = useRef(false);
  /** The session this browser had, ended once the person chose to continue as someone else (as Log Out would). */
  const replaced = useRef<string | null>(null);

  useEffect(() => {
    // Once: the code is single use.
    if (!code || started.current) return;
    started.current = true;
    redeemGoogleCode(code)
      .then(setRedeemed)
      .catch((cause: unknown) => setError(errorMessage(cause)));
  }, [code]);

  const otherUser =
    redeemed && status === 'signed-in' && user && user.email.toLowerCase() !== redeemed.user.email.toLowerCase()
      ? user
      : null;

  // Nobody else is signed in here (or the same person is, or the person chose to switch): the new session takes over.
  useEffect(() => {
    if (!redeemed || status === 'loading' || (otherUser && !switchConfirmed) || finished.current) return;
    finished.current = true;
    signIn(redeemed.token, redeemed.user);
    if (replaced.current) void revokeToken(replaced.current).catch(() => {});
    navigate(afterSignIn(returnTo, redeemed.user), { replace: true });
  }, [redeemed, status, otherUser, switchConfirmed, signIn, navigate, returnTo]);

  if (error) {
    return (
      <AuthCard title="Sign In With Google">
        <Alert variant="danger">{error}</Alert>
        <Link to={paths.login} className="btn btn-brand w-100">
          Back to Login
        </Link>
      </AuthCard>
    );
  }
  if (!redeemed || !otherUser) return <LoadingSpinner label="Signing you in…" page />;

  const newUser = redeemed.user;
  const continueAsNew = () => {
    setBusy(true);
    replaced.current = readToken();
    setSwitchConfirmed(true);
  };
  // Staying ends the new session at once: nobody is left holding it.
  const stay = async () => {
    setBusy(true);
    await revokeToken(redeemed.token).catch(() => {});
    navigate(paths.home, { replace: true });
  };

  return (
    <AuthCard title="Sign In With Google">
      <p className="text-break">
        You are signed in as {otherUser.email}. Continue as {newUser.email}?
      </p>
      <div className="d-grid gap-2">
        <Button className="btn-brand text-break" disabled={busy} onClick={continueAsNew}>
          Continue as {newUser.email}
        </Button>
        <Button variant="outline-dark" className="text-break" disabled={busy} onClick={() => void stay()}>
          Stay as {otherUser.email}
        </Button>
      </div>
    </AuthCard>
  );
}
