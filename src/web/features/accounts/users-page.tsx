import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { useSearchParams } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { decodeCursor } from '../../../shared/cursor-codec.ts';
import { toastMessages } from '../../../shared/messages.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { EmptyState, LoadError, LoadingSpinner } from '../../components/query-state.tsx';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { useUrlPaging } from '../../lib/url-paging.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { usersQuery } from './accounts-api.ts';
import { useMakeAdmin, useRemoveAdmin } from './use-account-mutations.ts';
import './users-page.css';

const PAGE_SIZE = 25;
/** As the server's query schema allows. */
const SEARCH_MAX = 254;

/**
 * The list's state as its URL holds it (?q=&page=, and after Next or Previous the page's cursor, `after=` or
 * `before=`), so a search can be shared and Back returns to the page before. A hand-edited value the API would
 * refuse is left out: page 1, or the page read by its number.
 */
function readUsersUrl(params: URLSearchParams) {
  const q = (params.get('q') ?? '').trim().slice(0, SEARCH_MAX);
  const page = Math.min(40_000, Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1));
  const cursorIn = (name: 'after' | 'before') => {
    const value = params.get(name);
    return page > 1 && value && decodeCursor(value)?.o === 'users' ? value : undefined;
  };
  const after = cursorIn('after');
  const before = after ? undefined : cursorIn('before');
  return { q, page, after, before };
}

const plural = (n: number) => `${n} ${n === 1 ? 'user' : 'users'}`;

export function Component() {
  usePageTitle('Users');
  const { user: me } = useAuth();
  const [params] = useSearchParams();
  const { q, page, after, before } = readUsersUrl(params);
  const [search, setSearch] = useState(q);
  // Back/forward or a shared link changes the URL: the box follows.
  useEffect(() => setSearch(q), [q]);
  const offset = (page - 1) * PAGE_SIZE;
  const users = useQuery(
    usersQuery({ limit: PAGE_SIZE, q, ...(after ? { after } : before ? { before } : { offset }) }),
  );
  const current = users.isPlaceholderData ? undefined : users.data;
  const searchBox = useRef<HTMLInputElement>(null);
  const previousButton = useRef<HTMLButtonElement>(null);
  const nextButton = useRef<HTMLButtonElement>(null);
  /** The paging button last pressed: if it is disabled on the new page (the first or last), focus moves beside it. */
  const paged = useRef<'next' | 'previous' | null>(null);
  useEffect(() => {
    if (!current || !paged.current) return;
    const [pressed, other] = paged.current === 'next' ? [nextButton, previousButton] : [previousButton, nextButton];
    if (pressed.current?.disabled) other.current?.focus();
    paged.current = null;
  }, [current]);

  const paging = useUrlPaging(page, current);
  const go = (changes: { q?: string }) => paging.go(changes);
  const goNext = () => {
    // The page shown is the one before, still loading: its cursor is not this page's.
    if (!current) return;
    paged.current = 'next';
    paging.goNext();
  };
  const goPrevious = () => {
    paged.current = 'previous';
    paging.goPrevious();
  };
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    go({ q: search.trim() });
  };
  const clearSearch = () => {
    setSearch('');
    go({ q: '' });
    searchBox.current?.focus();
  };
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
      <Form className="users-toolbar d-flex flex-wrap align-items-end gap-2 mb-3" role="search" onSubmit={submitSearch}>
        <Form.Group controlId="users-search" className="users-search flex-grow-1">
          <Form.Label className="small mb-1">Search by name or email</Form.Label>
          <Form.Control
            ref={searchBox}
            size="sm"
            type="search"
            value={search}
            maxLength={SEARCH_MAX}
            placeholder="Name or email"
            onChange={(event) => setSearch(event.target.value)}
          />
        </Form.Group>
        <Button type="submit" size="sm" variant="secondary">
          Search
        </Button>
        {q ? (
          <Button type="button" size="sm" variant="outline-dark" onClick={clearSearch}>
            Clear search
          </Button>
        ) : null}
      </Form>
      {/* Read out when a search or a page has loaded: how many users there are to look through. When there are
          none the empty state below says so on screen, so here it is only read out. */}
      <p className={`small text-body-secondary mb-2${users.data?.total === 0 ? ' visually-hidden' : ''}`} role="status">
        {users.data && !users.isError
          ? users.data.total === 0 && q
            ? `No users match “${q}”.`
            : q
              ? `${plural(users.data.total)} match “${q}”.`
              : `${plural(users.data.total)}.`
          : ''}
      </p>
      {users.isError ? (
        <LoadError error={users.error} onRetry={() => void users.refetch()} what="the users" />
      ) : users.isPending ? (
        <LoadingSpinner label="Loading users…" />
      ) : users.data.items.length === 0 ? (
        <EmptyState>
          {users.data.total > 0 ? (
            <p className="mb-0">
              No users on this page.{' '}
              <Button variant="link" className="p-0 align-baseline" onClick={() => go({})}>
                Go to the first page
              </Button>
            </p>
          ) : q ? (
            <p className="mb-0">No users match “{q}”.</p>
          ) : (
            <p className="mb-0">No users yet.</p>
          )}
        </EmptyState>
      ) : (
        <div
          className={`table-responsive bg-white rounded shadow-sm${users.isPlaceholderData ? ' users-loading' : ''}`}
          aria-busy={users.isPlaceholderData}
        >
          <Table hover className="users-table align-middle mb-0">
            <caption className="visually-hidden">
              {q ? `Users matching “${q}” and their role` : 'All users and their role'}
            </caption>
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
              {users.data.items.map((user, index) => {
                const busy = promote.isPending && promote.variables === user.email;
                const isMe = user.email.toLowerCase() === me?.email.toLowerCase();
                return (
                  <tr key={user._id}>
                    <td>{offset + index + 1}</td>
                    <td className="text-break">
                      {user.email}
                      {/* The name column does not fit a phone: the name goes under the email there. */}
                      {user.displayName ? (
                        <span className="d-block d-sm-none small text-body-secondary">{user.displayName}</span>
                      ) : null}
                    </td>
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
      {users.data && !users.isError && (page > 1 || users.data.nextCursor) ? (
        <nav aria-label="User pages" className="d-flex flex-wrap align-items-center gap-2 mt-3">
          {/* outline-dark: Bootstrap's secondary grey on the dashboard's light background is 4.47:1, under AA. */}
          <Button ref={previousButton} variant="outline-dark" size="sm" disabled={page <= 1} onClick={goPrevious}>
            Previous
          </Button>
          <span className="small">
            {users.data.items.length > 0
              ? `${offset + 1}–${offset + users.data.items.length} of ${users.data.total}`
              : `Page ${page}`}
          </span>
          {/* Enabled while the next page loads, so it keeps the focus; disabled on the last page. */}
          <Button ref={nextButton} variant="outline-dark" size="sm" disabled={!users.data.nextCursor} onClick={goNext}>
            Next
          </Button>
        </nav>
      ) : null}
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
