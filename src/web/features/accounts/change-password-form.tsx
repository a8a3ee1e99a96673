import { zodResolver } from '@hookform/resolvers/zod';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { toastMessages } from '../../../shared/messages.ts';
import { paths } from '../../../shared/paths.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { NewPasswordFields } from './new-password-fields.tsx';
import { type ChangePasswordValues, changePasswordFormSchema } from './password-forms.ts';
import { useChangePassword } from './use-account-mutations.ts';

const empty: ChangePasswordValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

/**
 * Change Password on My Profile: the current password proves it is the owner. The server ends every other session
 * and answers with a new one for this browser. Its refusals show under the field they are about.
 */
export function ChangePasswordForm({ email, hasPassword }: { email: string; hasPassword: boolean }) {
  const form = useForm<ChangePasswordValues>({ resolver: zodResolver(changePasswordFormSchema), defaultValues: empty });
  const change = useChangePassword();

  if (!hasPassword) {
    return (
      <p className="mb-0">
        This account signs in with Google. To set a password as well, use{' '}
        <Link to={paths.forgotPassword}>Forgot Password?</Link>
      </p>
    );
  }

  const submit = form.handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          form.reset(empty);
          toast.success(toastMessages.passwordChanged);
        },
        onError: (error) => {
          // A refused new password (a 400 naming it) goes under its field through FormError.
          if (error instanceof ApiError && error.code === 'wrong_password') {
            form.setError('currentPassword', { type: 'server', message: error.message }, { shouldFocus: true });
          }
        },
      },
    ),
  );

  return (
    <Form noValidate onSubmit={submit} aria-labelledby="change-password-title">
      {/* For password managers: which account this password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <FormField
        form={form}
        name="currentPassword"
        label="Current Password"
        type="password"
        autoComplete="current-password"
      />
      <NewPasswordFields form={form} name="newPassword" />
      {change.error instanceof ApiError && change.error.code === 'wrong_password' ? null : (
        <FormError error={change.error} form={form} />
      )}
      <SubmitButton busy={change.isPending} busyLabel="Changing your password…" className="btn-brand">
        Change Password
      </SubmitButton>
    </Form>
  );
}
