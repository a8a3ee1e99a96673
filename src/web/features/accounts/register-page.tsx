import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { Navigate, useLocation } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { type SignupBody, signupBodySchema } from '../../../shared/schemas/accounts.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { useAuth } from '../../lib/auth-context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { signUp } from './accounts-api.ts';
import { AuthCard } from './auth-card.tsx';
import { OtherWaysIn } from './other-ways-in.tsx';
import { afterSignIn, returnPath } from './session-ended-redirect.tsx';

/**
 * Spec §2 Register: the display name comes from Name; afterwards the user goes to the home page, unless a page sent
 * them to sign in (a visitor at checkout signs up and comes back to it, their cart joined to the account).
 */
export function Component() {
  usePageTitle('Sign Up');
  const { status, user, signIn } = useAuth();
  const location = useLocation();
  const from = returnPath(location.state);
  const form = useForm<SignupBody>({
    resolver: zodResolver(signupBodySchema),
    defaultValues: { name: '', email: '', password: '' },
  });
  const register = useMutation({ mutationFn: signUp, onSuccess: (result) => signIn(result.token, result.user) });

  if (status === 'signed-in') return <Navigate to={user ? afterSignIn(from, user) : paths.home} replace />;

  return (
    <AuthCard title="Please Sign Up">
      <Form noValidate onSubmit={form.handleSubmit((values) => register.mutate(values))}>
        <FormField form={form} name="name" label="Name" autoComplete="name" />
        <FormField form={form} name="email" label="Email" type="email" autoComplete="email" />
        <FormField form={form} name="password" label="Password" type="password" autoComplete="new-password" />
        <FormError error={register.error} />
        <SubmitButton busy={register.isPending} busyLabel="Creating your account…">
          SignUp
        </SubmitButton>
      </Form>
      <OtherWaysIn question="Already have an account?" to={paths.login} label="Please Login" googleReturnTo={from} />
    </AuthCard>
  );
}
