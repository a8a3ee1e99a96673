import type * as ZxcvbnCore from '@zxcvbn-ts/core';
import type * as ZxcvbnCommon from '@zxcvbn-ts/language-common';
import { validationMessages as m, type WeakPasswordHint, weakPasswordMessage } from './messages.ts';

/**
 * The one password rule of the shop, used by the server (sign-up, reset, change, ADMIN_PASSWORD) and by the web
 * forms. Beyond the spec's 'Must Be 6 Characters Or Longer': not the account's email, not one of the most common
 * passwords, and a zxcvbn-ts score of at least MIN_PASSWORD_SCORE, judged with the shop's name and the person's own
 * name and email as words an attacker would try first.
 *
 * The dictionaries weigh about 400 KB, so this module imports only their types: the caller hands in the loaded
 * libraries (the server with a synchronous require on the first check, the web with import() on the password pages
 * only), and the home page's bundle never carries them.
 */

/**
 * zxcvbn's scale: 2 means more than 10^6 guesses ("safe from unthrottled online attacks"). Sign-in is throttled and
 * hashes are scrypt, so 2 refuses what a person would guess (repeats, keyboard walks, a name with digits) without
 * refusing a short random password.
 */
export const MIN_PASSWORD_SCORE = 2;

/** The shop's own names: the first words anyone would try on a Redline Parts account. */
export const SHOP_WORDS = ['Redline', 'Redline Parts', 'RedlineParts'] as const;

export interface PasswordLibraries {
  core: Pick<typeof ZxcvbnCore, 'ZxcvbnFactory'>;
  common: Pick<typeof ZxcvbnCommon, 'dictionary' | 'adjacencyGraphs'>;
}

/** Whose password it is: both optional (ADMIN_PASSWORD has an email and no name). */
export interface PasswordOwner {
  email?: string | undefined;
  name?: string | undefined;
}

export type PasswordCheck = (password: string, owner: PasswordOwner) => string | null;

/** The words of the owner and the shop that zxcvbn-ts treats as known to an attacker. */
export function ownerWords(owner: PasswordOwner): string[] {
  const words = new Set<string>(SHOP_WORDS.map((word) => word.toLowerCase()));
  const add = (value: string | undefined) => {
    const word = value?.trim().toLowerCase();
    if (word && word.length >= 3) words.add(word);
  };
  const email = owner.email?.trim().toLowerCase();
  if (email) {
    add(email);
    const [local, domain] = email.split('@');
    add(local);
    for (const piece of local?.split(/[._+-]+/) ?? []) add(piece);
    add(domain?.split('.')[0]);
  }
  if (owner.name) {
    add(owner.name);
    add(owner.name.replace(/\s+/g, ''));
    for (const piece of owner.name.split(/\s+/)) add(piece);
  }
  return [...words];
}

/** Which hint of 'Choose A Stronger Password: …' fits the weakness zxcvbn-ts names. */
const HINT_BY_WARNING: Record<string, WeakPasswordHint> = {
  simpleRepeat: 'repeat',
  extendedRepeat: 'repeat',
  sequences: 'sequence',
  straightRow: 'keyboard',
  keyPattern: 'keyboard',
  userInputs: 'personal',
  recentYears: 'dates',
  dates: 'dates',
  topTen: 'common',
  topHundred: 'common',
  common: 'common',
  similarToCommon: 'common',
  wordByItself: 'common',
  namesByThemselves: 'common',
  commonNames: 'common',
  pwned: 'common',
};

/** Builds the check once per process (or page): the dictionaries are ranked when the factory is made. */
export function createPasswordCheck(libraries: PasswordLibraries): PasswordCheck {
  const { dictionary, adjacencyGraphs } = libraries.common;
  const zxcvbn = new libraries.core.ZxcvbnFactory({
    dictionary,
    graphs: adjacencyGraphs,
    // The schema stops at 128 characters; the estimate never needs to look further.
    maxLength: 128,
  });
  const common = new Set(dictionary['passwords-common'].map((word) => word.toLowerCase()));
  return (password, owner) => {
    if (password.length < 6) return m.passwordTooShort;
    if (password.length > 128) return m.passwordTooLong;
    const normalised = password.normalize('NFKC').trim().toLowerCase();
    const email = owner.email?.trim().toLowerCase();
    if (email && normalised === email) return m.passwordIsEmail;
    if (common.has(normalised)) return m.passwordTooCommon;
    const result = zxcvbn.check(password, ownerWords(owner));
    if (result.score >= MIN_PASSWORD_SCORE) return null;
    const warning = result.feedback.warning ?? '';
    return weakPasswordMessage(HINT_BY_WARNING[warning] ?? 'general');
  };
}
