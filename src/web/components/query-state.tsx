import type { ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Row, { type RowProps } from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { errorMessage, worthRetrying } from '../lib/api-client.ts';

/**
 * The error state every list shares: what went wrong, and a way to try again when that may help (an outage, not a
 * refusal such as a malformed address, which would only answer the same).
 */
export function LoadError({ error, onRetry, what }: { error: unknown; onRetry(): void; what: string }) {
  return (
    <Alert variant="danger" className="d-flex flex-wrap align-items-center justify-content-between gap-2" role="alert">
      <span>
        Could not load {what}. {errorMessage(error)}
      </span>
      {worthRetrying(error) ? (
        <Button variant="outline-danger" size="sm" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </Alert>
  );
}

/** A spinner that tells screen readers what is loading; `page` gives it a whole page's room. */
export function LoadingSpinner({ label, page = false }: { label: string; page?: boolean }) {
  return (
    <div className={`d-flex justify-content-center ${page ? 'py-5' : 'py-4'}`}>
      <Spinner animation="border" role="status">
        <span className="visually-hidden">{label}</span>
      </Spinner>
    </div>
  );
}

/**
 * A grid's loading state: `count` placeholder cards where the real ones will stand, so the page does not jump, and
 * one label that tells screen readers what is loading.
 */
export function SkeletonGrid({
  label,
  count,
  skeleton,
  ...columns
}: { label: string; count: number; skeleton: ReactNode } & Pick<RowProps, 'xs' | 'sm' | 'md' | 'lg' | 'xl'>) {
  return (
    // A status, so the label is allowed on it (axe: aria-prohibited-attr) and read out while the cards load.
    <Row {...columns} className="g-4" role="status" aria-busy="true" aria-label={label}>
      {Array.from({ length: count }, (_, index) => index + 1).map((n) => (
        <Col key={n}>{skeleton}</Col>
      ))}
    </Row>
  );
}

/** The empty state: says plainly that there is nothing yet, and what to do about it. */
export function EmptyState({ children }: { children: ReactNode }) {
  return <div className="text-center text-body-secondary py-5 border rounded bg-white">{children}</div>;
}

interface QueryLike {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch(): unknown;
}

/** The loading and error states of one query, as every list page shows them; nothing once data is there. */
export function QueryStatus({ query, what, loadingLabel }: { query: QueryLike; what: string; loadingLabel: string }) {
  if (query.isPending) return <LoadingSpinner label={loadingLabel} />;
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} what={what} />;
  return null;
}
