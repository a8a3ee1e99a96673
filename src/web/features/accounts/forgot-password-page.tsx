import { zodResolver } from '@hookform/resolvers/zod';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { type ForgotPasswordBody, forgotPasswordBodySchema } from '../../../shared/schemas/accounts.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { AuthCard } from './auth-card.tsx';
import { useForgotPassword } from './use-account-mutations.ts';

/**
 * 'Forgot Password?': asks for a reset link by email. The server answers the same whether or not the email has an
 * account (no enumeration), so the page shows that one answer; only too many requests (429) is different.
 */
export function Component() {
  usePageTitle('Forgot Password');
  const form = useForm<ForgotPasswordBody>({
    resolver: zodResolver(forgotPasswordBodySchema),
    defaultValues: { email: '' },
  });
  const forgot = useForgotPassword();

  return (
    <AuthCard title="Forgot Password?">
      {forgot.isSuccess ? (
        <>
          <Alert variant="success">{forgot.data.message}</Alert>
          <p className="small text-body-secondary">
            Nothing arrived? Check your spam folder, or wait a few minutes and ask again.
          </p>
          <Link to={paths.login} className="btn btn-brand w-100">
            Back to Login
          </Link>
        </>
      ) : (
        <>
          <p>Enter the email of your account. We will send you a link to set a new password.</p>
          <Form noValidate onSubmit={form.handleSubmit((values) => forgot.mutate(values))}>
            <FormField form={form} name="email" label="Email" type="email" autoComplete="email" />
            {forgot.error instanceof ApiError && forgot.error.status === 429 ? (
              // The server's sentence says how long to wait ('Too many attempts. Please try again in …').
              <Alert variant="warning" role="alert">
                {forgot.error.message}
              </Alert>
            ) : (
              <FormError error={forgot.error} form={form} />
            )}
            <SubmitButton busy={forgot.isPending} busyLabel="Sending…">
              Send Reset Link
            </SubmitButton>
          </Form>
          <p className="mt-3 mb-0 text-center">
            Remembered it? <Link to={paths.login}>Please Login</Link>
          </p>
        </>
      )}
    </AuthCard>
  );
}
