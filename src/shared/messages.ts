/**
 * Every user-facing sentence the spec fixes word for word, in one place, so the server's validation,
 * the web forms and the tests agree on the exact text.
 */
export const validationMessages = {
  emailRequired: 'Email Is Required',
  emailInvalid: 'Provide A Valid Email',
  passwordRequired: 'Password Is Required',
  passwordTooShort: 'Must Be 6 Characters Or Longer',
  passwordTooLong: 'Must Be 128 Characters Or Fewer',
  nameRequired: 'Name Is Required',
  /** Checked by the server only, against a kept list the web bundle never carries. */
  passwordTooCommon: 'This Password Is Too Common',
  passwordIsEmail: 'Password Must Not Be Your Email',
  /** A password zxcvbn-ts scores too low: `weakPasswordMessage(hint)` names what to avoid. */
  passwordTooWeakPrefix: 'Choose A Stronger Password: ',
  /** The new password typed twice must match (web only: the server receives it once). */
  passwordsDiffer: 'Passwords Do Not Match',
} as const;

/** What `weakPasswordMessage` names after 'Choose A Stronger Password: ', by the weakness zxcvbn-ts found. */
export const weakPasswordHints = {
  repeat: 'Avoid Repeated Letters And Patterns',
  sequence: 'Avoid Sequences Like abc Or 123',
  keyboard: 'Avoid Keyboard Patterns Like qwerty',
  personal: 'Avoid Your Name, Your Email And The Shop’s Name',
  common: 'Avoid Common Words And Passwords',
  dates: 'Avoid Dates And Years',
  general: 'Use A Few Unrelated Words Or A Longer Mix',
} as const;
export type WeakPasswordHint = keyof typeof weakPasswordHints;

export function weakPasswordMessage(hint: WeakPasswordHint): string {
  return `${validationMessages.passwordTooWeakPrefix}${weakPasswordHints[hint]}`;
}

export const toastMessages = {
  orderPlaced: 'Your Order Has Been Placed',
  stockOut: 'Stock Out',
  profileSaved: 'Information Added Successfully',
  productAdded: 'Product Added Successfully',
  adminFailed: 'Failed To Make An Admin',
  adminMade: 'Successfully Made An Admin',
  paymentCompleted: 'Your Payment Is Completed!',
  /** After Change Password (the server's answer is the new session, not a sentence). */
  passwordChanged: 'Your password has been changed',
  adminRemoved: 'Admin Rights Removed',
} as const;

/** The spec's fixed 'Order More Than 100' named the wrong number; we name the part's real minimum. */
export function belowMinimumMessage(minimumOrder: number): string {
  return `Order At Least ${minimumOrder} PCS`;
}

export const confirmMessages = {
  deleteOrder: 'Confirm Delete',
  deleteProduct: 'Are You Sure?',
} as const;

export const notFoundText = 'OPPS! Page Not Found';

/**
 * The only codes the Google callback puts in `/auth/callback#error=`, each with the sentence the
 * web shows. The web never shows text from the URL: an unknown code gets `googleSignInFailed`.
 */
export const googleSignInErrors = {
  cancelled: 'Google sign-in was cancelled.',
  invalid_state: 'This sign-in link is not valid or was already used. Please try again.',
  expired: 'This sign-in took too long and expired. Please try again.',
  browser_mismatch:
    'This sign-in was started in another browser or tab that is no longer open. Please start it again here.',
  no_email: 'Your Google account did not share an email address, so we cannot sign you in with it.',
  unverified_email:
    'Your Google email address is not verified, so we cannot sign you in with it. Please log in with your password.',
  password_sign_in_required:
    'An account with this email already exists. Please log in with your password first, or reset it with Forgot Password?',
  linked_elsewhere: 'This email is already linked to another Google account.',
  unavailable: 'Google sign-in is unavailable right now. Please try again later.',
  not_configured: 'Google sign-in is not configured.',
} as const;
export type GoogleSignInErrorCode = keyof typeof googleSignInErrors;

export const googleSignInFailed = 'Google sign-in did not work. Please try again.';

/** The sentences of the account calls (docs/briefs accounts contract), the same on server and web. */
export const accountMessages = {
  /** The one answer of a sign-up, whether or not the email already has an account (the mail says which). */
  signupCheckEmail: 'Check your email to finish signing up',
  signupAccountExists: 'This email already has an account. Please log in.',
  invalidLinkToken: 'This link is not valid or has expired. You can ask for a new one.',
  verificationResent: 'We sent you a new link. Please check your inbox.',
  alreadyVerified: 'Your email is already verified.',
  resetRequested:
    'If an account exists for this email, we sent a link to reset its password. The link is valid for 1 hour.',
  passwordReset: 'Your password has been reset. Please log in with your new password.',
  wrongPassword: 'Your current password is not correct.',
  noPassword: 'This account signs in with Google. Use Forgot Password? to set a password.',
  lastAdmin: 'The shop needs at least one administrator.',
  invalidGoogleCode: 'This sign-in link is not valid or has expired. Please try again.',
} as const;
