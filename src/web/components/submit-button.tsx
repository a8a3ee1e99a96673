import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';

/** A form's submit button: disabled while the request runs, with a spinner that tells screen readers what is happening. */
export function SubmitButton({
  busy,
  busyLabel,
  className = 'btn-brand w-100',
  children,
}: {
  busy: boolean;
  busyLabel: string;
  /** Full width by default, as on the sign-in cards. */
  className?: string;
  children: ReactNode;
}) {
  return (
    <Button type="submit" className={className} disabled={busy}>
      {busy ? (
        <Spinner animation="border" size="sm" role="status" className="me-2">
          <span className="visually-hidden">{busyLabel}</span>
        </Spinner>
      ) : null}
      {children}
    </Button>
  );
}
