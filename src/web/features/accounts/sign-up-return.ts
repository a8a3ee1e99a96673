import { safeReturnTo } from '../../../shared/schemas/accounts.ts';

/**
 * The page that sent someone to sign up, kept in this browser until the link of the sign-up's mail is opened: the
 * link usually opens in a new tab (from the mail), where the router's state of the sign-up page is gone.
 */
const KEY = 'signUpReturnTo';

export function rememberSignUpReturn(path: string): void {
  try {
    localStorage.setItem(KEY, path);
  } catch {
    // Storage blocked (private mode): the link then leads home.
  }
}

/** The kept page (once: it is forgotten as it is read), or null when this browser kept none. */
export function takeSignUpReturn(): string | null {
  try {
    const path = localStorage.getItem(KEY);
    localStorage.removeItem(KEY);
    return path === null ? null : safeReturnTo(path);
  } catch {
    return null;
  }
}
