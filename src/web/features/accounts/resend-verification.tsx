import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { errorMessage } from '../../lib/api-client.ts';
import { useResendVerification } from './use-account-mutations.ts';

/**
 * 'Send the link again' with what came of it beside it: the server's sentence when sent, its reason when not
 * (too many requests, already verified). Announced politely: it answers the person's own click.
 */
export function ResendVerification({ variant = 'outline-dark' }: { variant?: string }) {
  const resend = useResendVerification();
  return (
    <span className="d-inline-flex flex-wrap align-items-center gap-2">
      <Button
        size="sm"
        variant={variant}
        disabled={resend.isPending || resend.isSuccess}
        onClick={() => resend.mutate()}
      >
        {resend.isPending ? <Spinner animation="border" size="sm" className="me-1" aria-hidden="true" /> : null}
        Send the link again
      </Button>
      <span role="status" className={resend.isError ? 'text-danger-emphasis' : undefined}>
        {resend.isSuccess ? resend.data.message : resend.isError ? errorMessage(resend.error) : null}
      </span>
    </span>
  );
}
