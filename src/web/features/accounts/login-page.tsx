import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useLocation } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { type LoginBody, loginBodySchema } from '../../../shared/schemas/accounts.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { logIn } from './accounts-api.ts';
import { AuthCard } from './auth-card.tsx';
import { OtherWaysIn } from './other-ways-in.tsx';
import { afterSignIn, type LoginLocationState, type LoginNotice, returnPath } from './session-ended-redirect.tsx';

/** What the page says when the app sent the user here (not shown once a sign-in attempt has failed). */
const notices: Record<LoginNotice, { variant: 'info' | 'warning'; text: string }> = {
  'session-ended': { variant: 'info', text: 'Your session has ended. Please log in again.' },
  'not-allowed': {
    variant: 'warning',
    text: 'That page is for administrators. Log in with an administrator account to open it.',
  },
  'signed-out-everywhere': {
    variant: 'info',
    text: 'You have been signed out on every device. Please log in again.',
  },
};

/** Spec §2 Login: back to the page that asked for sign-in (location.state.from), or the home page. */
export function Component() {
  usePageTitle('Login');
  const location = useLocation();
  const { status, user, signIn } = useAuth();
  const from = returnPath(location.state);
  const notice = (location.state as LoginLocationState | null)?.notice;
  const form = useForm<LoginBody>({
    resolver: zodResolver(loginBodySchema),
    defaultValues: { email: '', password: '' },
  });
  const login = useMutation({ mutationFn: logIn, onSuccess: (result) => signIn(result.token, result.user) });

  if (status === 'signed-in' && user) return <Navigate to={afterSignIn(from, user)} replace />;

  return (
    <AuthCard title="Please Login">
      {notice && notices[notice] && !login.isError ? (
        <Alert variant={notices[notice].variant} className="py-2">
          {notices[notice].text}
        </Alert>
      ) : null}
      <Form noValidate onSubmit={form.handleSubmit((values) => login.mutate(values))}>
        <FormField form={form} name="email" label="Email" type="email" autoComplete="email" />
        <FormField form={form} name="password" label="Password" type="password" autoComplete="current-password" />
        <LoginError error={login.error} />
        <SubmitButton busy={login.isPending} busyLabel="Signing in…">
          Login
        </SubmitButton>
      </Form>
      <p className="mt-3 mb-0 text-center">
        <Link to={paths.forgotPassword}>Forgot Password?</Link>
      </p>
      <OtherWaysIn
        question="New to Redline Parts?"
        to={paths.register}
        label="Creat New Account"
        googleReturnTo={from}
      />
    </AuthCard>
  );
}

/**
 * The server's message in red (spec §2). After too many failures (429) the server names the way back in, so the
 * message carries a 'Forgot Password?' link: the owner of a hammered account can still get in.
 */
function LoginError({ error }: { error: unknown }) {
  if (!offersReset(error)) return <FormError error={error} />;
  return (
    <p className="text-danger small" role="alert">
      {(error as ApiError).message} <Link to={paths.forgotPassword}>Forgot Password?</Link>
    </p>
  );
}

/** A 429 whose details name the reset page (`[{ resetPasswordPath }]`); the link itself comes from paths.ts. */
function offersReset(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 429) return false;
  return (error.details ?? []).some((item) => typeof item === 'object' && item !== null && 'resetPasswordPath' in item);
}
