import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useLocation } from 'react-router';
import { type SignupBody, signupBodySchema } from '../../../shared/schemas/accounts.ts';
import { FormField } from '../../components/form-field.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { signUp } from './accounts-api.ts';
import { AuthCard } from './auth-card.tsx';
import { useAuth } from './auth-context.tsx';
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

  if (status === 'signed-in') return <Navigate to="/" replace />;

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
        <Button type="submit" className="btn-brand w-100" disabled={register.isPending}>
          {register.isPending ? (
            <>
              <Spinner animation="border" size="sm" role="status" className="me-2">
                <span className="visually-hidden">Creating your account…</span>
              </Spinner>
              SignUp
            </>
          ) : (
            'SignUp'
          )}
        </Button>
      </Form>
      <p className="mt-3 mb-0 text-center">
        Already have an account?{' '}
        <Link to="/login" state={location.state}>
          Please Login
        </Link>
      </p>
      <div className="auth-divider my-3" aria-hidden="true">
        <span>or</span>
      </div>
      <GoogleButton returnTo="/" />
    </AuthCard>
  );
}
