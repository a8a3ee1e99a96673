import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';

/** A form's submit button: disabled while the request runs, with a spinner that tells screen readers what is happening. */
export function SubmitButton({
  busy,
  busyLabel,
  className = 'btn-brand w-100',
  disabled = false,
  describedBy,
  children,
}: {
  busy: boolean;
  busyLabel: string;
  /** Full width by default, as on the sign-in cards. */
  className?: string;
  /** Disabled for a reason other than a running request (e.g. out of stock): say it in `describedBy`. */
  disabled?: boolean;
  /** The id of the visible text that says why the button is disabled, so screen readers say it too. */
  describedBy?: string;
  children: ReactNode;
}) {
  return (
    <Button type="submit" className={className} disabled={busy || disabled} aria-describedby={describedBy}>
      {busy ? (
        <Spinner animation="border" size="sm" role="status" className="me-2">
          <span className="visually-hidden">{busyLabel}</span>
        </Spinner>
      ) : null}
      {children}
    </Button>
  );
}
