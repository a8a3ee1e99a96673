import { zodResolver } from '@hookform/resolvers/zod';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { accountMessages } from '../../../shared/messages.ts';
import { paths } from '../../../shared/paths.ts';
import { FormError } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { AuthCard } from './auth-card.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';
import { type ResetPasswordValues, resetPasswordFormSchema } from './password-forms.ts';
import { useResetPassword } from './use-account-mutations.ts';
import { useLinkFragment } from './use-link-fragment.ts';

/**
 * The link of the reset mail (`/reset-password#token=…`): set a new password, typed twice. The server then ends
 * every session of the account, so the person logs in again with it.
 */
export function Component() {
  usePageTitle('Reset Password');
  const token = useLinkFragment().get('token') ?? '';
  const navigate = useNavigate();
  const { status, signOut } = useAuth();
  const form = useForm<ResetPasswordValues>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const reset = useResetPassword();
  const submit = form.handleSubmit(({ password }) =>
    reset.mutate(
      { token, password },
      {
        onSuccess: async ({ message }) => {
          // Whoever is signed in here lost that session too if it was this account: forget it, whichever it was.
          if (status === 'signed-in') await signOut('log-out');
          toast.success(message);
          navigate(paths.login, { replace: true });
        },
      },
    ),
  );
  const badLink = !token || isBadLink(reset.error);

  return (
    <AuthCard title="Set A New Password">
      {badLink ? (
        <>
          <Alert variant="danger">
            {reset.error instanceof ApiError && reset.error.code === 'invalid_token'
              ? reset.error.message
              : accountMessages.invalidLinkToken}
          </Alert>
          <Link to={paths.forgotPassword} className="btn btn-brand w-100">
            Ask For A New Link
          </Link>
        </>
      ) : (
        <Form noValidate onSubmit={submit}>
          <NewPasswordFields form={form} name="password" />
          {/* A refused password shows under its field (the server's rule, e.g. too common); anything else here. */}
          <FormError error={reset.error} form={form} />
          <SubmitButton busy={reset.isPending} busyLabel="Saving your new password…">
            Set New Password
          </SubmitButton>
        </Form>
      )}
    </AuthCard>
  );
}

/** Unknown, used or expired (invalid_token), or not even a token (a 400 about `body.token`). */
function isBadLink(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.code === 'invalid_token') return true;
  return (
    error.status === 400 &&
    (error.details ?? []).some((detail) => (detail as { path?: unknown })?.path === 'body.token')
  );
}
