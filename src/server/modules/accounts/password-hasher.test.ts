import { describe, expect, it } from 'vitest';
import { validationMessages as m } from '../../../shared/messages.ts';
import { loadConfig } from '../../config.ts';
import {
  hashPassword,
  needsRehash,
  PRODUCTION_SCRYPT_PARAMS,
  passwordHashParams,
  verifyPassword,
} from './password-hasher.ts';
import { passwordProblem } from './password-policy.ts';

describe('password hashing', () => {
  it('uses at least OWASP’s scrypt cost by default (N=2^17, r=8, p=1), whatever the harness does', async () => {
    const params = passwordHashParams(loadConfig({}));
    expect(params).toEqual(PRODUCTION_SCRYPT_PARAMS);
    expect(params.N).toBeGreaterThanOrEqual(2 ** 17);
    // Even under NODE_ENV=test the low cost needs the explicit test-only setting.
    expect(passwordHashParams(loadConfig({ NODE_ENV: 'test' }))).toEqual(PRODUCTION_SCRYPT_PARAMS);
    const stored = await hashPassword('kx8-vq2-long-enough');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword('kx8-vq2-long-enough', stored)).toBe(true);
    expect(await verifyPassword('kx8-vq2-long-enougH', stored)).toBe(false);
    // The hash that was the earlier default (N=2^15) is upgraded; a production one is not.
    expect(needsRehash(await hashPassword('x-y-z-1', { N: 2 ** 15, r: 8, p: 1 }), params)).toBe(true);
    expect(needsRehash(stored, params)).toBe(false);
  }, 30_000);

  it('accepts the test-only low cost only under NODE_ENV=test, with a sentence naming the setting', () => {
    expect(() => loadConfig({ TEST_ONLY_FAST_PASSWORD_HASH: 'true' })).toThrow(
      /TEST_ONLY_FAST_PASSWORD_HASH is for the test suite only/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', TEST_ONLY_FAST_PASSWORD_HASH: 'true' })).toThrow(
      /TEST_ONLY_FAST_PASSWORD_HASH/,
    );
    expect(passwordHashParams(loadConfig({ NODE_ENV: 'test', TEST_ONLY_FAST_PASSWORD_HASH: 'true' })).N).toBe(2 ** 10);
  });
});

describe('password rules', () => {
  it('refuses the most common passwords (any case) and the account’s own email; the spec’s length rule stays', () => {
    for (const common of ['password', '123456', 'qwerty123', 'Password1', 'letmein', 'iloveyou', 'admin123']) {
      expect(passwordProblem(common, 'rider@example.com'), common).toBe(m.passwordTooCommon);
    }
    expect(passwordProblem('Rider@Example.com', 'rider@example.com')).toBe(m.passwordIsEmail);
    expect(passwordProblem('12345', undefined)).toBe(m.passwordTooShort);
    expect(passwordProblem('ride-safe-123', 'rider@example.com')).toBeNull();
  });

  it('refuses weak passwords by their zxcvbn-ts score, with the owner’s name and email as known words', () => {
    for (const weak of ['aaaaaa', 'zzzzzzzzz', 'abcabcabc', 'redline123', 'qazwsxedcrfv1', 'casey.rider']) {
      expect(passwordProblem(weak, 'casey.rider@example.com', 'Casey Rider'), weak).toMatch(
        /^Choose A Stronger Password: /,
      );
    }
    expect(passwordProblem('caseyrider1', 'casey.rider@example.com', 'Casey Rider')).toMatch(/Choose A Stronger/);
    expect(passwordProblem('kettle-ocean-41', 'casey.rider@example.com', 'Casey Rider')).toBeNull();
  });

  it('checks quickly once loaded: the sign-up, reset and change routes pay it on the event loop', () => {
    passwordProblem('warm-up-the-dictionaries-1', 'a@b.co');
    const started = performance.now();
    for (let i = 0; i < 20; i++) passwordProblem(`not-common-${i}-x-${'yz'.repeat(i)}`, 'a@b.co', 'A Rider');
    // Generous: the suite shares a loaded machine; an idle one answers in a few milliseconds a check.
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('checks ADMIN_PASSWORD by the same rules at start-up, with a sentence naming it', () => {
    expect(() => loadConfig({ ADMIN_PASSWORD: 'password1' })).toThrow(
      /ADMIN_PASSWORD is refused by the password rules: This Password Is Too Common/,
    );
    expect(() => loadConfig({ ADMIN_EMAIL: 'boss@shop.motorcycles', ADMIN_PASSWORD: 'boss@shop.motorcycles' })).toThrow(
      /ADMIN_PASSWORD is refused by the password rules: Password Must Not Be Your Email/,
    );
    expect(() => loadConfig({ ADMIN_PASSWORD: 'short' })).toThrow(/Must Be 6 Characters Or Longer/);
    expect(() => loadConfig({ ADMIN_PASSWORD: 'redline123' })).toThrow(
      /ADMIN_PASSWORD is refused by the password rules: Choose A Stronger Password: /,
    );
    // L5: an admin on a long-ending domain is accepted.
    expect(loadConfig({ ADMIN_EMAIL: 'boss@shop.motorcycles', ADMIN_PASSWORD: 'kx8-vq2-yes' }).ADMIN_EMAIL).toBe(
      'boss@shop.motorcycles',
    );
  });
});
