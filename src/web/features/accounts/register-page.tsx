import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useLocation } from 'react-router';
import { type SignupBody, signupBodySchema } from '../../../shared/schemas/accounts.ts';
import { FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { paths } from '../../lib/paths.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { signUp } from './accounts-api.ts';
import { AuthCard } from './auth-card.tsx';
import { GoogleButton } from './google-button.tsx';

/** Spec §2 Register: the display name comes from Name; afterwards the user goes to the home page. */
export function Component() {
  usePageTitle('Sign Up');
  const location = useLocation();
  const { status, signIn } = useAuth();
  const form = useForm<SignupBody>({
    resolver: zodResolver(signupBodySchema),
    defaultValues: { name: '', email: '', password: '' },
  });
  const register = useMutation({ mutationFn: signUp, onSuccess: (result) => signIn(result.token, result.user) });

  if (status === 'signed-in') return <Navigate to={paths.home} replace />;

  return (
    <AuthCard title="Please Sign Up">
      <Form noValidate onSubmit={form.handleSubmit((values) => register.mutate(values))}>
        <FormField form={form} name="name" label="Name" autoComplete="name" />
        <FormField form={form} name="email" label="Email" type="email" autoComplete="email" />
        <FormField form={form} name="password" label="Password" type="password" autoComplete="new-password" />
        {register.isError ? (
          <p className="text-danger small" role="alert">
            {errorMessage(register.error)}
          </p>
        ) : null}
        <SubmitButton busy={register.isPending} busyLabel="Creating your account…">
          SignUp
        </SubmitButton>
      </Form>
      <p className="mt-3 mb-0 text-center">
        Already have an account?{' '}
        <Link to={paths.login} state={location.state}>
          Please Login
        </Link>
      </p>
      <div className="auth-divider my-3" aria-hidden="true">
        <span>or</span>
      </div>
      <GoogleButton returnTo={paths.home} />
    </AuthCard>
  );
}
