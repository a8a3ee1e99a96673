import Container from 'react-bootstrap/Container';
import { useLocation } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { ResendVerification } from './resend-verification.tsx';

/**
 * Under the navbar for a signed-in user whose email is not verified yet. Not an alert: it is not news, and a page's
 * own alerts must stay the ones announced. The verify page itself says how the link went instead. Its name leaves out
 * the word 'email', so it is never mistaken for a page's Email field (getByLabel, screen readers' field lists).
 */
export function VerifyEmailBanner() {
  const { status, user } = useAuth();
  const { pathname } = useLocation();
  if (status !== 'signed-in' || user?.emailVerified !== false || pathname === paths.verifyEmail) return null;
  return (
    <aside
      aria-label="Account verification"
      className="bg-warning-subtle text-warning-emphasis border-bottom border-warning-subtle"
    >
      <Container className="py-2 d-flex flex-wrap align-items-center column-gap-3 row-gap-1 small">
        <span>
          <strong>Please verify your email.</strong> Open the link we sent to{' '}
          <span className="text-break">{user.email}</span>.
        </span>
        <ResendVerification />
      </Container>
    </aside>
  );
}
