import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link, useNavigate } from 'react-router';
import { safeReturnTo } from '../../../shared/schemas/accounts.ts';
import { LoadingSpinner } from '../../components/query-state.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { clearToken, storeToken } from '../../lib/auth-token.ts';
import { paths } from '../../lib/paths.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { fetchMe } from './accounts-api.ts';
import { AuthCard } from './auth-card.tsx';

/**
 * Where Google sign-in lands: the server put the token (or an error) in the URL fragment, which browsers never
 * send to a server or write to its logs. Store the token, learn who it belongs to, then go where the user was.
 */
export function Component() {
  usePageTitle('Signing In');
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const [fragment] = useState(() => new URLSearchParams(window.location.hash.slice(1)));
  const [error, setError] = useState<string | null>(() =>
    fragment.get('token') ? null : (fragment.get('error') ?? 'This sign-in link is not valid. Please try again.'),
  );
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The token must not stay in the address bar or the history.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    const token = fragment.get('token');
    if (!token) return;
    storeToken(token);
    fetchMe()
      .then((me) => {
        signIn(token, me);
        navigate(safeReturnTo(fragment.get('returnTo')), { replace: true });
      })
      .catch((cause: unknown) => {
        clearToken();
        setError(errorMessage(cause));
      });
  }, [fragment, signIn, navigate]);

  if (!error) return <LoadingSpinner label="Signing you in…" />;
  return (
    <AuthCard title="Sign In With Google">
      <Alert variant="danger" role="alert">
        {error}
      </Alert>
      <Link to={paths.login} className="btn btn-brand w-100">
        Back to Login
      </Link>
    </AuthCard>
  );
}
