import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { signUpAndVerify } from '../../../../test/support/sign-up.ts';
import {
  createUser,
  describeEachDatabase,
  TEST_SESSION_SECRET,
  testConfig,
} from '../../../../test/support/test-app.ts';
import { buildApp } from '../../app.ts';
import type { DatabaseHandle } from '../../db/client.ts';

const limits = {
  RATE_LIMIT_LOGIN_PER_IP: '5',
  RATE_LIMIT_LOGIN_PER_ACCOUNT: '3',
  RATE_LIMIT_SIGNUP_PER_IP: '4',
  RATE_LIMIT_SIGNUP_PER_ACCOUNT: '2',
  RATE_LIMIT_WINDOW_SECONDS: '600',
};

let ipCounter = 0;
/** A fresh client address per use, so one test's counters never touch another's. */
const freshIp = () => {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};
const freshEmail = () => `limit-${crypto.randomBytes(5).toString('hex')}@example.com`;
const PASSWORD = 'ride-safe-123';

function login(app: FastifyInstance, email: string, password: string, ip: string) {
  return app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress: ip });
}
function signup(app: FastifyInstance, email: string, ip: string) {
  return app.inject({
    method: 'POST',
    url: '/api/signup',
    payload: { name: 'Lim It', email, password: PASSWORD },
    remoteAddress: ip,
  });
}

/** An account with PASSWORD: signed up from `ip`, its mailed link opened. */
function account(app: FastifyInstance, db: DatabaseHandle['db'], email: string, ip: string) {
  return signUpAndVerify(app, db, { name: 'Lim It', email, password: PASSWORD }, ip);
}

function expectLimited(res: Awaited<ReturnType<FastifyInstance['inject']>>, signIn = false) {
  expect(res.statusCode).toBe(429);
  const error = { code: 'rate_limited', message: expect.stringMatching(/^Too many attempts/) };
  // A refused sign-in names the way back in that no limit blocks (the web links to it).
  expect(res.json()).toEqual({
    error: signIn ? { ...error, details: [{ resetPasswordPath: '/forgot-password' }] } : error,
  });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(600);
}

describeEachDatabase(
  'abuse limits (memory store)',
  (ctx) => {
    it('M3: an attacker hammering an account is stopped at their address, and the owner still signs in from another', async () => {
      const email = freshEmail();
      await account(ctx().app, ctx().database.db, email, freshIp());
      const attacker = freshIp();
      for (let i = 0; i < 3; i++)
        expect((await login(ctx().app, email, 'wrong-password', attacker)).statusCode).toBe(401);
      for (let i = 0; i < 5; i++) expectLimited(await login(ctx().app, email, 'wrong-password', attacker), true);
      // From the hammering address even the right password is refused (or the limit would be an oracle)…
      expectLimited(await login(ctx().app, email, PASSWORD, attacker), true);
      // …but the owner, elsewhere, is never locked out of their own account (the old 15-minute lock is gone).
      expect((await login(ctx().app, email.toUpperCase(), PASSWORD, freshIp())).statusCode).toBe(200);
      // Failures spread over many addresses lock nothing either.
      for (let i = 0; i < 8; i++)
        expect((await login(ctx().app, email, 'wrong-password', freshIp())).statusCode).toBe(401);
      expect((await login(ctx().app, email, PASSWORD, freshIp())).statusCode).toBe(200);
    });

    it('does not count successful sign-ins against the account', async () => {
      const email = freshEmail();
      await account(ctx().app, ctx().database.db, email, freshIp());
      for (let i = 0; i < 6; i++) expect((await login(ctx().app, email, PASSWORD, freshIp())).statusCode).toBe(200);
    });

    it('refuses sign-in from one address after its attempts, whatever the accounts', async () => {
      const ip = freshIp();
      for (let i = 0; i < 5; i++)
        expect((await login(ctx().app, freshEmail(), 'wrong-password', ip)).statusCode).toBe(401);
      expectLimited(await login(ctx().app, freshEmail(), 'wrong-password', ip), true);
      expect((await login(ctx().app, freshEmail(), 'wrong-password', freshIp())).statusCode).toBe(401);
    });

    it('refuses sign-up per address and per email', async () => {
      const ip = freshIp();
      for (let i = 0; i < 4; i++) expect((await signup(ctx().app, freshEmail(), ip)).statusCode).toBe(202);
      expectLimited(await signup(ctx().app, freshEmail(), ip));

      const email = freshEmail();
      expect((await signup(ctx().app, email, freshIp())).statusCode).toBe(202);
      expect((await signup(ctx().app, email, freshIp())).statusCode).toBe(202);
      expectLimited(await signup(ctx().app, email, freshIp()));
    });
  },
  limits,
);

describeEachDatabase(
  'M3: a growing, capped delay per account instead of a lock',
  (ctx) => {
    it('answers an account that keeps failing more slowly, from every address, never past the cap, and still lets the owner in', async () => {
      const email = freshEmail();
      await account(ctx().app, ctx().database.db, email, freshIp());
      const timed = async (password: string) => {
        const started = performance.now();
        const res = await login(ctx().app, email, password, freshIp());
        return { status: res.statusCode, ms: performance.now() - started };
      };
      const early = await timed('wrong-password');
      expect(early.status).toBe(401);
      const times: number[] = [];
      for (let i = 0; i < 9; i++) times.push((await timed('wrong-password')).ms);
      // Failures 4, 5, 6… wait 1/16, 1/8, 1/4… of the cap (640 ms here), then the cap.
      expect(times.at(-1)).toBeGreaterThanOrEqual(600);
      expect(Math.max(...times)).toBeLessThan(640 + 2000);
      const owner = await timed(PASSWORD);
      expect(owner.status).toBe(200);
      expect(owner.ms).toBeGreaterThanOrEqual(600);
    });
  },
  { ...limits, RATE_LIMIT_LOGIN_PER_ACCOUNT: '50', RATE_LIMIT_LOGIN_DELAY_MAX_MS: '640' },
);

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisReachable(): Promise<boolean> {
  const probe = new Redis(redisUrl, {
    connectTimeout: 500,
    maxRetriesPerRequest: 0,
    lazyConnect: true,
    retryStrategy: () => null,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const haveRedis = await redisReachable();

describe.runIf(haveRedis)('abuse limits shared through Redis', () => {
  describeEachDatabase('two instances', (ctx) => {
    const namespace = `redline-test-${crypto.randomBytes(6).toString('hex')}:`;
    const apps: FastifyInstance[] = [];

    async function instance(database: DatabaseHandle): Promise<FastifyInstance> {
      // This test is about sharing counts, not about a slow Redis (the fault tests cover that): on a busy machine the
      // 500 ms command timeout would send a count to the in-memory fallback and the instances would stop sharing.
      const overrides = {
        ...limits,
        REDIS_URL: redisUrl,
        RATE_LIMIT_NAMESPACE: namespace,
        REDIS_COMMAND_TIMEOUT_MS: '5000',
      };
      const config = testConfig(overrides);
      const app = await buildApp({ config, database, sessionSecret: TEST_SESSION_SECRET, logger: false });
      await app.ready();
      apps.push(app);
      // Until its Redis connection is up an instance counts in its own memory (not an outage): on a busy machine
      // that can outlast app.ready(), and the first attempts would not be shared. Wait until health says Redis.
      const deadline = Date.now() + 15_000;
      // The health report's details are an admin's (the public learns only up or down).
      const { headers } = await createUser({ ...ctx(), app, config }, { admin: true });
      while (
        (await app.inject({ method: 'GET', url: '/api/health', headers })).json().rateLimits?.counting !== 'redis'
      ) {
        if (Date.now() > deadline) throw new Error('the instance never started counting in Redis');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return app;
    }

    afterAll(async () => {
      for (const app of apps) await app.close();
      const cleaner = new Redis(redisUrl);
      const keys = await cleaner.keys(`*${namespace}*`);
      if (keys.length > 0) await cleaner.del(...keys);
      cleaner.disconnect();
    });

    it('counts attempts on either instance against one limit', async () => {
      const a = await instance(ctx().database);
      const b = await instance(ctx().database);
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const app = i % 2 === 0 ? a : b;
        statuses.push((await login(app, freshEmail(), 'wrong-password', ip)).statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      expectLimited(await login(a, freshEmail(), 'wrong-password', ip), true);

      // Failures on one account from one address, on either instance, count against one limit (M3)…
      const email = freshEmail();
      const attacker = freshIp();
      await account(a, ctx().database.db, email, freshIp());
      for (const app of [b, a, b]) expect((await login(app, email, 'wrong-password', attacker)).statusCode).toBe(401);
      expectLimited(await login(a, email, PASSWORD, attacker), true);
      // …and the owner elsewhere still signs in on either instance.
      expect((await login(b, email, PASSWORD, freshIp())).statusCode).toBe(200);

      const cleaner = new Redis(redisUrl);
      expect((await cleaner.keys(`*${namespace}*`)).length).toBeGreaterThan(0);
      cleaner.disconnect();
    });
  });
});
