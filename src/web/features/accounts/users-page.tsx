import { useQuery } from '@tanstack/react-query';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { toast } from 'react-toastify/unstyled';
import { toastMessages } from '../../../shared/messages.ts';
import { EmptyState, LoadError, LoadingSpinner } from '../../components/query-state.tsx';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { usersQuery } from './accounts-api.ts';
import { useMakeAdmin } from './use-account-mutations.ts';

/** Spec §2 Users (admin): every user with a Make Admin button; admins show a badge instead. */
export function Component() {
  usePageTitle('Users');
  const users = useQuery(usersQuery);
  const promote = useMakeAdmin();
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
                return (
                  <tr key={user._id}>
                    <td>{index + 1}</td>
                    <td className="text-break">{user.email}</td>
                    <td className="d-none d-sm-table-cell">{user.displayName}</td>
                    <td>
                      {user.admin ? (
                        <Badge bg="dark">Admin</Badge>
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
    </section>
  );
}
