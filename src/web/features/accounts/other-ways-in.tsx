import { Link, useLocation } from 'react-router';
import { GoogleButton } from './google-button.tsx';

/**
 * Under the login and sign-up forms: the link to the other form (keeping the page to return to), then 'or' and
 * Google sign-in.
 */
export function OtherWaysIn({
  question,
  to,
  label,
  googleReturnTo,
}: {
  question: string;
  to: string;
  label: string;
  googleReturnTo: string;
}) {
  const location = useLocation();
  return (
    <>
      <p className="mt-3 mb-0 text-center">
        {question}{' '}
        <Link to={to} state={location.state}>
          {label}
        </Link>
      </p>
      <div className="auth-divider my-3" aria-hidden="true">
        <span>or</span>
      </div>
      <GoogleButton returnTo={googleReturnTo} />
    </>
  );
}
