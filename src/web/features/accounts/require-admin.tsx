import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { LoadError } from '../../components/query-state.tsx';
import { useAuth } from '../../lib/auth-context.tsx';
import { adminCheckQuery } from './accounts-api.ts';

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
  const check = useQuery({ ...adminCheckQuery(user?.email ?? ''), enabled: Boolean(user) });
  const refused = check.isSuccess && !check.data.admin;

  // Signed out as 'not-allowed': RequireAuth around the dashboard then sends to /login with this page kept.
  useEffect(() => {
    if (refused) void signOut('not-allowed');
  }, [refused, signOut]);

  if (check.isError) return <LoadError error={check.error} onRetry={() => void check.refetch()} what="your role" />;
  if (!check.isSuccess || refused) return <CheckingButton />;
  return children;
}
