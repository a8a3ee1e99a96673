import { type MailContent, type MailDocument, renderPersonalMail } from './mail-layout.ts';

/**
 * The account mails. Each takes typed data and returns { subject, html, text }; links are built by the caller
 * (from PUBLIC_URL), names are the user's own and are escaped by the layout. Render before opening the transaction
 * that enqueues the mail: on PGlite an open transaction blocks every other query.
 */

export type AccountMailKind =
  | 'verify-email'
  | 'account-exists'
  | 'reset-password'
  | 'password-changed'
  | 'sign-in-method-linked';

interface Recipient {
  /** The user's display name; may be empty. */
  name: string;
}

const ACCOUNT_REASON = 'You received this email because it concerns your Redline Parts account.';

/** An account mail: greets the person, and says it concerns their account unless it gives its own reason. */
function accountMail(name: string, mail: Omit<MailDocument, 'reason'> & { reason?: string }): Promise<MailContent> {
  return renderPersonalMail(name, { ...mail, reason: mail.reason ?? ACCOUNT_REASON });
}

export function verifyEmailMail(data: Recipient & { verifyUrl: string; validForHours: number }): Promise<MailContent> {
  return accountMail(data.name, {
    subject: 'Verify your email for Redline Parts',
    preview: 'Confirm your address to finish setting up your account.',
    heading: 'Verify your email',
    blocks: [
      {
        kind: 'paragraph',
        text: 'Thanks for signing up at Redline Parts. Please confirm that this is your email address.',
      },
      { kind: 'action', label: 'Verify email', url: data.verifyUrl },
      { kind: 'note', text: `This link works for ${hours(data.validForHours)}.` },
      { kind: 'note', text: 'If you did not create an account, you can ignore this email.' },
    ],
    reason: 'You received this email because this address was used to create a Redline Parts account.',
  });
}

/**
 * A sign-up with an email that already has an account: its owner is told, instead of the person signing up, so the
 * sign-up's answer cannot say which emails are registered.
 */
export function accountExistsMail(data: Recipient & { signInUrl: string; resetUrl: string }): Promise<MailContent> {
  return accountMail(data.name, {
    subject: 'Someone tried to sign up at Redline Parts with your email',
    preview: 'You already have an account: sign in, or reset your password.',
    heading: 'You already have an account',
    blocks: [
      {
        kind: 'paragraph',
        text: 'Someone (maybe you) tried to create a Redline Parts account with this email address. You already have an account with it, so no new one was created.',
      },
      { kind: 'action', label: 'Sign in', url: data.signInUrl },
      { kind: 'paragraph', text: 'Forgot your password? You can choose a new one.' },
      { kind: 'action', label: 'Reset password', url: data.resetUrl },
      { kind: 'note', text: 'If it was not you, you can ignore this email: nothing about your account changed.' },
    ],
  });
}

export function resetPasswordMail(data: Recipient & { resetUrl: string }): Promise<MailContent> {
  return accountMail(data.name, {
    subject: 'Reset your Redline Parts password',
    preview: 'Choose a new password. The link works for 1 hour.',
    heading: 'Reset your password',
    blocks: [
      { kind: 'paragraph', text: 'Someone asked to reset the password of your Redline Parts account.' },
      { kind: 'action', label: 'Choose a new password', url: data.resetUrl },
      { kind: 'note', text: 'This link works for 1 hour.' },
      { kind: 'note', text: 'If you did not ask for this, ignore this email: your password stays as it is.' },
    ],
  });
}

export function passwordChangedMail(data: Recipient & { changedAt: Date; resetUrl: string }): Promise<MailContent> {
  return accountMail(data.name, {
    subject: 'Your Redline Parts password was changed',
    preview: 'If this was you, there is nothing to do.',
    heading: 'Your password was changed',
    blocks: [
      { kind: 'paragraph', text: `The password of your Redline Parts account was changed on ${when(data.changedAt)}.` },
      { kind: 'paragraph', text: 'If this was you, there is nothing to do.' },
      { kind: 'paragraph', text: 'If it was not you, reset your password now.' },
      { kind: 'action', label: 'Reset password', url: data.resetUrl },
    ],
  });
}

export function signInMethodLinkedMail(
  data: Recipient & { method: string; linkedAt: Date; accountUrl: string },
): Promise<MailContent> {
  return accountMail(data.name, {
    subject: `${data.method} sign-in was linked to your Redline Parts account`,
    preview: `You can now sign in with ${data.method}.`,
    heading: 'A new sign-in method was linked',
    blocks: [
      {
        kind: 'paragraph',
        text: `${data.method} sign-in was linked to your Redline Parts account on ${when(data.linkedAt)}. You can now sign in with it as well as with your existing method.`,
      },
      {
        kind: 'details',
        rows: [
          ['Method', data.method],
          ['When', when(data.linkedAt)],
        ],
      },
      { kind: 'paragraph', text: 'If this was not you, review your account and change your password.' },
      { kind: 'action', label: 'Review my account', url: data.accountUrl },
    ],
  });
}

function hours(count: number): string {
  return count === 1 ? '1 hour' : `${count} hours`;
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/** One unambiguous time for every reader, wherever the server runs. */
function when(date: Date): string {
  return `${dateFormat.format(date)} UTC`;
}
