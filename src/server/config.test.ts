import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { resolveSessionSecret } from './secrets.ts';

describe('configuration', () => {
  it('has working defaults for the embedded shop', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATA_DIR).toBe('./data');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.paymentProvider).toBe('test');
    expect(config.googleConfigured).toBe(false);
  });

  it('chooses Stripe when all three Stripe keys are set', () => {
    const config = loadConfig({ STRIPE_SECRET_KEY: 'sk', STRIPE_PUBLISHABLE_KEY: 'pk', STRIPE_WEBHOOK_SECRET: 'wh' });
    expect(config.paymentProvider).toBe('stripe');
  });

  it('refuses some but not all of the Stripe keys, naming the missing ones (no silent test gateway)', () => {
    const all = { STRIPE_SECRET_KEY: 'sk', STRIPE_PUBLISHABLE_KEY: 'pk', STRIPE_WEBHOOK_SECRET: 'wh' };
    const cases: Array<[Partial<typeof all>, string[]]> = [
      [{ STRIPE_SECRET_KEY: 'sk' }, ['STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET']],
      [{ STRIPE_PUBLISHABLE_KEY: 'pk' }, ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']],
      [{ STRIPE_SECRET_KEY: 'sk', STRIPE_PUBLISHABLE_KEY: 'pk' }, ['STRIPE_WEBHOOK_SECRET']],
      [{ STRIPE_SECRET_KEY: 'sk', STRIPE_WEBHOOK_SECRET: 'wh' }, ['STRIPE_PUBLISHABLE_KEY']],
      // A blank value is an unset one.
      [{ ...all, STRIPE_WEBHOOK_SECRET: '  ' }, ['STRIPE_WEBHOOK_SECRET']],
    ];
    for (const [env, missing] of cases) {
      const message = (() => {
        try {
          loadConfig(env);
        } catch (error) {
          return (error as Error).message;
        }
        return 'started';
      })();
      expect(message, JSON.stringify(env)).toMatch(/Stripe is half configured/);
      for (const name of Object.keys(all)) {
        // The names before the parenthesis are the missing ones; the parenthesis lists all three.
        const named = (message.split('(')[0] ?? '').includes(name);
        expect(named, `${name} in: ${message}`).toBe(missing.includes(name));
      }
      // Even when the test gateway is asked for outright: a partial set is a mistake either way.
      expect(() => loadConfig({ ...env, PAYMENT_PROVIDER: 'test' })).toThrow(/Stripe is half configured/);
    }
    expect(loadConfig({}).paymentProvider).toBe('test');
    expect(loadConfig({ ...all, PAYMENT_PROVIDER: 'test' }).paymentProvider).toBe('test');
  });

  it('runs the test gateway in production only when PAYMENT_PROVIDER=test asks for it by name', () => {
    const message = (() => {
      try {
        loadConfig({ NODE_ENV: 'production' });
      } catch (error) {
        return (error as Error).message;
      }
      return 'started';
    })();
    expect(message).toMatch(/No payment provider in production/);
    for (const name of [
      'STRIPE_SECRET_KEY',
      'STRIPE_PUBLISHABLE_KEY',
      'STRIPE_WEBHOOK_SECRET',
      'PAYMENT_PROVIDER=test',
    ]) {
      expect(message).toContain(name);
    }
    expect(loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'test' }).paymentProvider).toBe('test');
    const all = { STRIPE_SECRET_KEY: 'sk', STRIPE_PUBLISHABLE_KEY: 'pk', STRIPE_WEBHOOK_SECRET: 'wh' };
    expect(loadConfig({ NODE_ENV: 'production', ...all }).paymentProvider).toBe('stripe');
    // A fresh machine (NODE_ENV unset) and development keep the test gateway as the default.
    expect(loadConfig({}).paymentProvider).toBe('test');
    expect(loadConfig({ NODE_ENV: 'development' }).paymentProvider).toBe('test');
  });

  it('fails fast with a sentence naming the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET must be at least 32 characters/);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'stripe' })).toThrow(/STRIPE_SECRET_KEY/);
    // An admin the login form could never accept (no ending at all, a numeric one) is refused before it is seeded.
    expect(() => loadConfig({ ADMIN_EMAIL: 'admin@shop' })).toThrow(/ADMIN_EMAIL/);
    expect(() => loadConfig({ ADMIN_EMAIL: 'admin@shop.c0m' })).toThrow(/ADMIN_EMAIL/);
  });
});

describe('the session secret', () => {
  it('is taken from SESSION_SECRET when set', () => {
    const secret = 'x'.repeat(40);
    expect(resolveSessionSecret({ SESSION_SECRET: secret, DATA_DIR: '/nonexistent' })).toBe(secret);
  });

  it('is generated once and kept under the data directory otherwise', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-secret-'));
    const first = resolveSessionSecret({ SESSION_SECRET: undefined, DATA_DIR: dir });
    const second = resolveSessionSecret({ SESSION_SECRET: undefined, DATA_DIR: dir });
    expect(first).toHaveLength(64);
    expect(second).toBe(first);
    expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
