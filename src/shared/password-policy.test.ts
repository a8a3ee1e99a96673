import * as core from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import { describe, expect, it } from 'vitest';
import { validationMessages as m, weakPasswordHints, weakPasswordMessage } from './messages.ts';
import { createPasswordCheck, ownerWords } from './password-policy.ts';

const check = createPasswordCheck({ core, common });
const owner = { email: 'casey.rider@example.com', name: 'Casey Rider' };

describe('the shared password rule', () => {
  it('refuses repeats, sequences, keyboard walks, the shop’s name and the owner’s own words', () => {
    const refused: Record<string, string> = {
      aaaaaa: weakPasswordMessage('repeat'),
      zzzzzzzzz: weakPasswordMessage('repeat'),
      abcabcabc: weakPasswordMessage('repeat'),
      redline123: weakPasswordMessage('personal'),
      'casey.rider': weakPasswordMessage('personal'),
    };
    for (const [password, message] of Object.entries(refused)) expect(check(password, owner), password).toBe(message);
    expect(check('qazwsxedcrfv1', owner)).toMatch(/^Choose A Stronger Password: /);
    expect(check('caseyrider', owner)).toMatch(/^Choose A Stronger Password: /);
  });

  it('keeps the spec’s length sentence and the sentences for the email and a common password', () => {
    expect(check('abc', owner)).toBe(m.passwordTooShort);
    expect(check('x'.repeat(129), owner)).toBe(m.passwordTooLong);
    expect(check('Casey.Rider@Example.com', owner)).toBe(m.passwordIsEmail);
    expect(check('password1', owner)).toBe(m.passwordTooCommon);
  });

  it('accepts a strong password, and every hint reads in the shop’s title case', () => {
    for (const strong of ['kettle-ocean-41', 'ride-safe-123', 'Tr4ck-Day-Brakes!'])
      expect(check(strong, owner)).toBeNull();
    for (const hint of Object.values(weakPasswordHints)) expect(hint).toMatch(/^[A-Z]/);
  });

  it('treats the shop’s name and the owner’s name and email pieces as known words', () => {
    expect(ownerWords(owner)).toEqual(
      expect.arrayContaining(['redline', 'redline parts', 'casey', 'rider', 'casey.rider', 'caseyrider', 'example']),
    );
  });
});
