/** The password rules as a person reads them under a new-password field; the server's rules are the authority. */
export const newPasswordHint = 'At least 6 characters. Not your email, and not a common password.';
