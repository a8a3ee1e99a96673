import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { FormField } from '../../components/form-field.tsx';

/** The password rules as a person reads them under a new-password field; the server's rules are the authority. */
export const newPasswordHint = 'At least 6 characters. Not your email, and not a common password.';

/**
 * A new password typed twice, as Change Password and the reset link ask for it: the same labels, autocomplete and
 * hint in both, so a password manager and a person see one form. `name` is the new password's field (the forms
 * name it after their request body); the second is always `confirmPassword`, checked by the form's schema.
 */
export function NewPasswordFields<T extends FieldValues & { confirmPassword: string }>({
  form,
  name,
}: {
  form: UseFormReturn<T, unknown, FieldValues>;
  name: Path<T>;
}) {
  return (
    <>
      <FormField
        form={form}
        name={name}
        label="New Password"
        type="password"
        autoComplete="new-password"
        hint={newPasswordHint}
      />
      <FormField
        form={form}
        name={'confirmPassword' as Path<T>}
        label="Confirm New Password"
        type="password"
        autoComplete="new-password"
      />
    </>
  );
}
