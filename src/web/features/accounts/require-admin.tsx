import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { useLocation, useNavigate } from 'react-router';
import { LoadError } from '../../components/query-state.tsx';
import { adminCheckQuery } from './accounts-api.ts';
import { useAuth } from './auth-context.tsx';
import type { LoginLocationState } from './session-ended-redirect.tsx';

function CheckingButton() {
  return (
    <Button variant="outline-secondary" disabled className="d-inline-flex align-items-center gap-2">
      <Spinner animation="border" size="sm" aria-hidden="true" />
      Loading…
    </Button>
  );
}

/**
 * Spec §4 admin check: ask the server about the signed-in email; a loading button shows until it answers; a
 * non-admin is signed out and sent to /login with the page kept. The server refuses them anyway (403).
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { user, signOut } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const check = useQuery({ ...adminCheckQuery(user?.email ?? ''), enabled: Boolean(user) });
  const refused = check.isSuccess && !check.data.admin;

  useEffect(() => {
    if (!refused) return;
    const state: LoginLocationState = { from: location };
    void signOut().then(() => navigate('/login', { replace: true, state }));
  }, [refused, signOut, navigate, location]);

  if (check.isError) return <LoadError error={check.error} onRetry={() => void check.refetch()} what="your role" />;
  if (!check.isSuccess || refused) return <CheckingButton />;
  return children;
}
