import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-field.tsx';
import { useSignOutEverywhere } from './use-account-mutations.ts';

/**
 * 'Sign Out Everywhere' on My Profile, after a confirmation: every session of the account ends, this one too, and
 * the login page says so.
 */
export function SignOutEverywhere() {
  const [asking, setAsking] = useState(false);
  const signOut = useSignOutEverywhere();
  return (
    <>
      <p>Lost a phone, or used a shared computer? End every session of your account, this one included.</p>
      <FormError error={signOut.error} />
      <Button variant="outline-danger" onClick={() => setAsking(true)}>
        Sign Out Everywhere
      </Button>
      <ConfirmDialog
        show={asking}
        title="Sign out everywhere?"
        body="You will be signed out on every device and browser, this one included, and need to log in again."
        confirmLabel="Sign Out Everywhere"
        busy={signOut.isPending}
        onConfirm={() => signOut.mutate(undefined, { onError: () => setAsking(false) })}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}
