import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import { googleSignInUrl, providersQuery } from './accounts-api.ts';

function GoogleMark() {
  return (
    <svg aria-hidden="true" width="18" height="18" viewBox="0 0 48 48" className="me-2 flex-shrink-0">
      <path
        fill="#EA4335"
        d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.9 6.1C12.5 13.6 17.8 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.1 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.4c-.5 2.9-2.2 5.3-4.6 6.9l7.4 5.7c4.3-4 6.9-9.9 6.9-17.1z"
      />
      <path
        fill="#FBBC05"
        d="M10.5 28.6c-.5-1.4-.8-3-.8-4.6s.3-3.2.8-4.6l-7.9-6.1C1 16.5 0 20.1 0 24s1 7.5 2.7 10.7l7.8-6.1z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.5 0 11.9-2.1 15.8-5.8l-7.4-5.7c-2.1 1.4-4.8 2.3-8.4 2.3-6.2 0-11.5-4.1-13.4-9.8l-7.9 6.1C6.6 42.6 14.6 48 24 48z"
      />
    </svg>
  );
}

/**
 * 'Sign In With Google': a plain navigation to our server, which redirects to Google and back. When the server
 * has no Google credentials the button says so instead of failing.
 */
export function GoogleButton({ returnTo }: { returnTo: string }) {
  const providers = useQuery(providersQuery);
  const unavailable = providers.isSuccess && !providers.data.google;
  const className = 'w-100 d-inline-flex align-items-center justify-content-center';
  return (
    <div>
      {providers.isSuccess && providers.data.google ? (
        <a href={googleSignInUrl(returnTo)} className={`btn btn-outline-dark ${className}`}>
          <GoogleMark />
          Sign In With Google
        </a>
      ) : (
        <Button
          variant="outline-dark"
          className={className}
          disabled
          aria-describedby={unavailable ? 'google-unavailable' : undefined}
        >
          <GoogleMark />
          Sign In With Google
        </Button>
      )}
      {unavailable ? (
        <p id="google-unavailable" className="small text-body-secondary mt-1 mb-0 text-center">
          Google sign-in is not configured on this shop.
        </p>
      ) : null}
    </div>
  );
}
