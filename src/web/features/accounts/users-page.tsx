import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { toast } from 'react-toastify/unstyled';
import { toastMessages } from '../../../shared/messages.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { EmptyState, LoadError, LoadingSpinner } from '../../components/query-state.tsx';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { usersQuery } from './accounts-api.ts';
import { useMakeAdmin, useRemoveAdmin } from './use-account-mutations.ts';

/**
 * Spec §2 Users (admin): every user with a Make Admin button; admins show a badge instead, and other admins a
 * 'Remove Admin' button that asks first (the server refuses to remove the last admin).
 */
export function Component() {
  usePageTitle('Users');
  const { user: me } = useAuth();
  const users = useQuery(usersQuery);
  const promote = useMakeAdmin();
  const demote = useRemoveAdmin();
  // The email stays while the dialog fades out; `asking` opens and closes it.
  const [removing, setRemoving] = useState('');
  const [asking, setAsking] = useState(false);
  const removeAdmin = (email: string) =>
    demote.mutate(email, {
      onSuccess: () => toast.success(toastMessages.adminRemoved),
      // 409 last_admin: 'The shop needs at least one administrator.'
      onError: (error) => toast.error(errorMessage(error)),
      onSettled: () => setAsking(false),
    });
  const makeAdmin = (email: string) =>
    promote.mutate(email, {
      onSuccess: (result) => {
        if (result.modifiedCount > 0) toast.success(toastMessages.adminMade);
        else toast.info('This User Is Already An Admin');
      },
      onError: (error) => {
        toast.error(
          error instanceof ApiError && error.status === 403 ? toastMessages.adminFailed : errorMessage(error),
        );
      },
    });

  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title" className="h2 mb-3">
        Users
      </h1>
      {users.isError ? (
        <LoadError error={users.error} onRetry={() => void users.refetch()} what="the users" />
      ) : users.isPending ? (
        <LoadingSpinner label="Loading users…" />
      ) : users.data.length === 0 ? (
        <EmptyState>No users yet.</EmptyState>
      ) : (
        <div className="table-responsive bg-white rounded shadow-sm">
          <Table hover className="align-middle mb-0">
            <caption className="visually-hidden">All users and their role</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Email</th>
                <th scope="col" className="d-none d-sm-table-cell">
                  Name
                </th>
                <th scope="col">Role</th>
              </tr>
            </thead>
            <tbody>
              {users.data.map((user, index) => {
                const busy = promote.isPending && promote.variables === user.email;
                const isMe = user.email.toLowerCase() === me?.email.toLowerCase();
                return (
                  <tr key={user._id}>
                    <td>{index + 1}</td>
                    <td className="text-break">{user.email}</td>
                    <td className="d-none d-sm-table-cell">{user.displayName}</td>
                    <td>
                      {user.admin ? (
                        <span className="d-inline-flex flex-wrap align-items-center gap-2">
                          <Badge bg="dark">Admin</Badge>
                          {isMe ? (
                            <span className="small text-body-secondary">(you)</span>
                          ) : (
                            <Button
                              size="sm"
                              variant="outline-danger"
                              className="text-nowrap"
                              onClick={() => {
                                setRemoving(user.email);
                                setAsking(true);
                              }}
                              aria-label={`Remove Admin: ${user.email}`}
                            >
                              Remove Admin
                            </Button>
                          )}
                        </span>
                      ) : (
                        <Button
                          size="sm"
                          className="btn-brand text-nowrap"
                          disabled={busy}
                          onClick={() => makeAdmin(user.email)}
                          aria-label={`Make Admin: ${user.email}`}
                        >
                          {busy ? <Spinner animation="border" size="sm" className="me-1" aria-hidden="true" /> : null}
                          Make Admin
                        </Button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
        </div>
      )}
      <ConfirmDialog
        show={asking}
        title="Remove admin rights?"
        body={`${removing} will no longer manage users, products and orders. They keep their account and orders.`}
        confirmLabel="Remove Admin"
        busy={demote.isPending}
        onConfirm={() => removeAdmin(removing)}
        onCancel={() => setAsking(false)}
      />
    </section>
  );
}
