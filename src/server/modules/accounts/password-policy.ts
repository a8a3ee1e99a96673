import { createRequire } from 'node:module';
import { validationMessages as m } from '../../../shared/messages.ts';

/**
 * The password rules the server adds to the spec's 'Must Be 6 Characters Or Longer': not one of the
 * most common passwords, and not the account's own email. The list is zxcvbn-ts's common-password dictionary
 * (`@zxcvbn-ts/language-common`, about 49,000 passwords from real leaks), kept on the server only: it must not ship
 * in the web bundle. Loading it costs time and memory once, on the first check, not at start-up (ADR 009).
 */
let commonPasswords: Set<string> | undefined;

function common(): Set<string> {
  if (!commonPasswords) {
    // Synchronous on purpose: config.ts checks ADMIN_PASSWORD while it loads, before anything is async.
    const require = createRequire(import.meta.url);
    const { dictionary } = require('@zxcvbn-ts/language-common') as {
      dictionary: Record<'passwords-common', string[]>;
    };
    commonPasswords = new Set(dictionary['passwords-common'].map((word) => word.toLowerCase()));
  }
  return commonPasswords;
}

/**
 * The first rule a password breaks, as the sentence the forms show, or null. Length (6–128) is the shared schema's
 * rule and is checked there too; it is repeated here so ADMIN_PASSWORD passes through one function.
 */
export function passwordProblem(password: string, email: string | undefined): string | null {
  if (password.length < 6) return m.passwordTooShort;
  if (password.length > 128) return m.passwordTooLong;
  const normalised = password.normalize('NFKC').trim().toLowerCase();
  if (email && normalised === email.trim().toLowerCase()) return m.passwordIsEmail;
  if (common().has(normalised)) return m.passwordTooCommon;
  return null;
}
