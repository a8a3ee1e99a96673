import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { Navigate, useLocation } from 'react-router';
import { type LoginBody, loginBodySchema } from '../../../shared/schemas/accounts.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { useAuth } from '../../lib/auth-context.tsx';
import { paths } from '../../lib/paths.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { logIn } from './accounts-api.ts';
import { AuthCard } from './auth-card.tsx';
import { OtherWaysIn } from './other-ways-in.tsx';
import { type LoginLocationState, returnPath } from './session-ended-redirect.tsx';

/** Spec §2 Login: back to the page that asked for sign-in (location.state.from), or the home page. */
export function Component() {
  usePageTitle('Login');
  const location = useLocation();
  const { status, signIn } = useAuth();
  const from = returnPath(location.state);
  const sessionEnded = Boolean((location.state as LoginLocationState | null)?.sessionEnded);
  const form = useForm<LoginBody>({
    resolver: zodResolver(loginBodySchema),
    defaultValues: { email: '', password: '' },
  });
  const login = useMutation({ mutationFn: logIn, onSuccess: (result) => signIn(result.token, result.user) });

  if (status === 'signed-in') return <Navigate to={from} replace />;

  return (
    <AuthCard title="Please Login">
      {sessionEnded && !login.isError ? (
        <Alert variant="info" className="py-2">
          Your session has ended. Please log in again.
        </Alert>
      ) : null}
      <Form noValidate onSubmit={form.handleSubmit((values) => login.mutate(values))}>
        <FormField form={form} name="email" label="Email" type="email" autoComplete="email" />
        <FormField form={form} name="password" label="Password" type="password" autoComplete="current-password" />
        <FormError error={login.error} />
        <SubmitButton busy={login.isPending} busyLabel="Signing in…">
          Login
        </SubmitButton>
      </Form>
      <OtherWaysIn
        question="New to Redline Parts?"
        to={paths.register}
        label="Creat New Account"
        googleReturnTo={from}
      />
    </AuthCard>
  );
}
