import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { Navigate, useLocation } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { type SignupBody, signupBodySchema } from '../../../shared/schemas/accounts.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { useAuth } from '../../lib/auth-context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { AuthCard } from './auth-card.tsx';
import { OtherWaysIn } from './other-ways-in.tsx';
import { afterSignIn, returnPath } from './session-ended-redirect.tsx';
import { rememberSignUpReturn } from './sign-up-return.ts';
import { useSignUp } from './use-account-mutations.ts';

/**
 * Spec §2 Register: the display name comes from Name. The server answers the same whether or not the email already
 * has an account, so the page only says to check the mail: the account is created, and its owner signed in, when
 * the mailed link is opened (verify-email page), which then returns to the page that sent them here, if any (a
 * visitor at checkout comes back to it, their cart joined to the account).
 */
export function Component() {
  usePageTitle('Sign Up');
  const { status, user } = useAuth();
  const location = useLocation();
  const from = returnPath(location.state);
  const form = useForm<SignupBody>({
    resolver: zodResolver(signupBodySchema),
    defaultValues: { name: '', email: '', password: '' },
  });
  const register = useSignUp();
  const sent = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // The form is gone: the answer takes the focus, so a screen reader reads it and the keyboard starts from it.
    if (register.isSuccess) sent.current?.focus();
  }, [register.isSuccess]);

  if (status === 'signed-in' && !register.isSuccess) {
    return <Navigate to={user ? afterSignIn(from, user) : paths.home} replace />;
  }

  const submit = (values: SignupBody) => {
    rememberSignUpReturn(from);
    register.mutate(values);
  };

  return (
    <AuthCard title="Please Sign Up">
      {register.isSuccess ? (
        <>
          <Alert variant="success" role="status" tabIndex={-1} ref={sent}>
            {register.data.message}
          </Alert>
          <p className="small text-body-secondary mb-0">
            Open the link in the mail we sent to <span className="text-break">{register.variables.email}</span> to
            finish. Nothing arrived? Check your spam folder, or wait a few minutes and sign up again.
          </p>
        </>
      ) : (
        <>
          <Form noValidate onSubmit={form.handleSubmit(submit)}>
            <FormField form={form} name="name" label="Name" autoComplete="name" />
            <FormField form={form} name="email" label="Email" type="email" autoComplete="email" />
            <FormField form={form} name="password" label="Password" type="password" autoComplete="new-password" />
            <FormError error={register.error} form={form} />
            <SubmitButton busy={register.isPending} busyLabel="Signing you up…">
              SignUp
            </SubmitButton>
          </Form>
          <OtherWaysIn
            question="Already have an account?"
            to={paths.login}
            label="Please Login"
            googleReturnTo={from}
          />
        </>
      )}
    </AuthCard>
  );
}
