import { createRequire } from 'node:module';
import { createPasswordCheck, type PasswordCheck, type PasswordLibraries } from '../../../shared/password-policy.ts';

/**
 * The server's door to the shared password rule (src/shared/password-policy.ts). zxcvbn-ts and its dictionaries
 * are loaded on the first check, not at start-up: they cost time and memory a process that never sees a password
 * does not need to pay (ADR 009).
 */
let check: PasswordCheck | undefined;

function loaded(): PasswordCheck {
  if (!check) {
    // Synchronous on purpose: config.ts checks ADMIN_PASSWORD while it loads, before anything is async.
    const require = createRequire(import.meta.url);
    const libraries: PasswordLibraries = {
      core: require('@zxcvbn-ts/core') as PasswordLibraries['core'],
      common: require('@zxcvbn-ts/language-common') as PasswordLibraries['common'],
    };
    check = createPasswordCheck(libraries);
  }
  return check;
}

/**
 * The first rule a password breaks, as the sentence the forms show, or null. Length (6–128) is the shared schema's
 * rule and is checked there too; it is repeated here so ADMIN_PASSWORD passes through one function.
 */
export function passwordProblem(password: string, email: string | undefined, name?: string): string | null {
  return loaded()(password, { email, name });
}
