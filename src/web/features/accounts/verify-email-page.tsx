import { useEffect, useRef } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link, useNavigate } from 'react-router';
import { accountMessages } from '../../../shared/messages.ts';
import { paths } from '../../../shared/paths.ts';
import { LoadingSpinner } from '../../components/query-state.tsx';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { AuthCard } from './auth-card.tsx';
import { ResendVerification } from './resend-verification.tsx';
import { afterSignIn } from './session-ended-redirect.tsx';
import { takeSignUpReturn } from './sign-up-return.ts';
import { useVerifyEmail } from './use-account-mutations.ts';
import { useLinkFragment } from './use-link-fragment.ts';

/**
 * The link of the verification mail (`/verify-email#token=…`). It works signed in or not, in any browser: the token
 * is the proof. A sign-up's link creates the account and signs in (the hook keeps the session as a sign-in does),
 * then goes to the page that sent the person to sign up if this browser kept it, else home. An older account's
 * link only verifies it. A link that failed offers a new one to a signed-in user, and asks others to log in for one.
 */
export function Component() {
  usePageTitle('Verify Your Email');
  const token = useLinkFragment().get('token') ?? '';
  const { status, user } = useAuth();
  const verify = useVerifyEmail();
  const { mutate } = verify;
  const sent = useRef(false);

  const navigate = useNavigate();
  const signedUp = verify.data?.token ? verify.data.user : undefined;

  useEffect(() => {
    // Once: the link is single use, and a second request would answer that it was used.
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  useEffect(() => {
    if (signedUp) navigate(afterSignIn(takeSignUpReturn() ?? paths.home, signedUp), { replace: true });
  }, [signedUp, navigate]);

  if (token && (verify.isIdle || verify.isPending || signedUp)) {
    return <LoadingSpinner label="Verifying your email…" page />;
  }

  return (
    <AuthCard title="Verify Your Email">
      {verify.isSuccess ? (
        <>
          <Alert variant="success">
            Thank you: <span className="text-break">{verify.data.email}</span> is verified.
          </Alert>
          <Link to={status === 'signed-in' ? paths.parts : paths.login} className="btn btn-brand w-100">
            {status === 'signed-in' ? 'Continue Shopping' : 'Please Login'}
          </Link>
        </>
      ) : (
        <>
          <Alert variant="danger">{linkError(verify.error)}</Alert>
          {verify.error instanceof ApiError && verify.error.status === 409 ? (
            <Link to={paths.login} className="btn btn-brand w-100">
              Please Login
            </Link>
          ) : status === 'signed-in' && user?.emailVerified === false ? (
            <ResendVerification variant="outline-dark" />
          ) : status === 'signed-in' ? (
            <Link to={paths.home} className="btn btn-brand w-100">
              Go To The Home Page
            </Link>
          ) : (
            <p className="mb-0">
              <Link to={paths.login} state={{ from: { pathname: paths.dashboard.myProfile } }}>
                Please Login
              </Link>{' '}
              to get a new link.
            </p>
          )}
        </>
      )}
    </AuthCard>
  );
}

/** The server's sentence for a link it refused; the same sentence for a link with no token at all. */
function linkError(error: unknown): string {
  if (!error || (error instanceof ApiError && error.status === 400 && error.code !== 'invalid_token')) {
    return accountMessages.invalidLinkToken;
  }
  return errorMessage(error);
}
