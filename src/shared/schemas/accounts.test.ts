import { describe, expect, it } from 'vitest';
import { EMAIL_PATTERN, emailSchema, safeReturnTo } from './accounts.ts';

describe('L1: safeReturnTo normalises before it checks', () => {
  it('turns every way of writing another site into a local path', () => {
    const attacks = [
      '/.//evil.example',
      '/././/evil.example/x',
      '/a/../..//evil.example',
      '/%2F%2Fevil.example',
      '/%2f/evil.example',
      '/%252F%252Fevil.example',
      '/\\evil.example',
      '/%5Cevil.example',
      '/%5C%5Cevil.example',
      '//evil.example',
      '///evil.example',
      '/\t/evil.example',
      '/%09/evil.example',
      '/%0A/evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      '\\\\evil.example',
    ];
    for (const attack of attacks) {
      const result = safeReturnTo(attack);
      expect(result, attack).toBe('/');
      // Whatever it answers, a browser resolves it on this site.
      expect(new URL(result, 'https://shop.example').origin, attack).toBe('https://shop.example');
    }
  });

  it('keeps real paths of the shop, their query and fragment', () => {
    expect(safeReturnTo('/dashboard/myorder')).toBe('/dashboard/myorder');
    expect(safeReturnTo('/allparts?q=brake&sort=name#top')).toBe('/allparts?q=brake&sort=name#top');
    expect(safeReturnTo('/search?q=100%25')).toBe('/search?q=100%25');
    expect(safeReturnTo('/api/me')).toBe('/');
    expect(safeReturnTo(undefined)).toBe('/');
  });
});

describe('L5: emails with any 2–63 letter ending', () => {
  it('accepts real addresses the spec’s 2–3 letter pattern refused', () => {
    for (const email of [
      'rider@garage.info',
      'a@shop.shop',
      'b@c.store',
      'x@y.motorcycles',
      "o'neil@x.ie",
      'a+b@sub.example.co.uk',
    ]) {
      expect(EMAIL_PATTERN.test(email), email).toBe(true);
      expect(emailSchema.safeParse(email).success, email).toBe(true);
    }
  });

  it('still refuses what is not an address, with the spec’s messages', () => {
    for (const email of [
      'a@b.c',
      'a@b',
      'a@b.c0m',
      `a@b.${'x'.repeat(64)}`,
      'a..b@c.com',
      '.a@c.com',
      'a@-c.com',
      'a b@c.com',
      'a@c.com\n',
    ]) {
      expect(EMAIL_PATTERN.test(email), email).toBe(false);
    }
    expect(emailSchema.safeParse('a@b').error?.issues[0]?.message).toBe('Provide A Valid Email');
    expect(emailSchema.safeParse('').error?.issues[0]?.message).toBe('Email Is Required');
  });
});
