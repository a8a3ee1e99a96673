import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, TEST_SESSION_SECRET, testConfig } from '../../../../test/support/test-app.ts';
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

function expectLimited(res: Awaited<ReturnType<FastifyInstance['inject']>>) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual({ error: { code: 'rate_limited', message: expect.stringMatching(/^Too many attempts/) } });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(600);
}

describeEachDatabase(
  'abuse limits (memory store)',
  (ctx) => {
    it('refuses sign-in to an account after its failed attempts, from any address, and not to others', async () => {
      const email = freshEmail();
      expect((await signup(ctx().app, email, freshIp())).statusCode).toBe(201);
      for (let i = 0; i < 3; i++)
        expect((await login(ctx().app, email, 'wrong-password', freshIp())).statusCode).toBe(401);
      expectLimited(await login(ctx().app, email, 'wrong-password', freshIp()));
      // Locked for the window, even with the right password: that is the point of the limit.
      expectLimited(await login(ctx().app, email.toUpperCase(), PASSWORD, freshIp()));
      const other = freshEmail();
      await signup(ctx().app, other, freshIp());
      expect((await login(ctx().app, other, PASSWORD, freshIp())).statusCode).toBe(200);
    });

    it('does not count successful sign-ins against the account', async () => {
      const email = freshEmail();
      await signup(ctx().app, email, freshIp());
      for (let i = 0; i < 6; i++) expect((await login(ctx().app, email, PASSWORD, freshIp())).statusCode).toBe(200);
    });

    it('refuses sign-in from one address after its attempts, whatever the accounts', async () => {
      const ip = freshIp();
      for (let i = 0; i < 5; i++)
        expect((await login(ctx().app, freshEmail(), 'wrong-password', ip)).statusCode).toBe(401);
      expectLimited(await login(ctx().app, freshEmail(), 'wrong-password', ip));
      expect((await login(ctx().app, freshEmail(), 'wrong-password', freshIp())).statusCode).toBe(401);
    });

    it('refuses sign-up per address and per email', async () => {
      const ip = freshIp();
      for (let i = 0; i < 4; i++) expect((await signup(ctx().app, freshEmail(), ip)).statusCode).toBe(201);
      expectLimited(await signup(ctx().app, freshEmail(), ip));

      const email = freshEmail();
      expect((await signup(ctx().app, email, freshIp())).statusCode).toBe(201);
      expect((await signup(ctx().app, email, freshIp())).statusCode).toBe(409);
      expectLimited(await signup(ctx().app, email, freshIp()));
    });
  },
  limits,
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
      const overrides = { ...limits, REDIS_URL: redisUrl, RATE_LIMIT_NAMESPACE: namespace };
      const config = testConfig(overrides);
      const app = await buildApp({ config, database, sessionSecret: TEST_SESSION_SECRET, logger: false });
      await app.ready();
      apps.push(app);
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
      expectLimited(await login(a, freshEmail(), 'wrong-password', ip));

      const email = freshEmail();
      expect((await signup(a, email, freshIp())).statusCode).toBe(201);
      for (const app of [b, a, b]) expect((await login(app, email, 'wrong-password', freshIp())).statusCode).toBe(401);
      expectLimited(await login(a, email, PASSWORD, freshIp()));

      const cleaner = new Redis(redisUrl);
      expect((await cleaner.keys(`*${namespace}*`)).length).toBeGreaterThan(0);
      cleaner.disconnect();
    });
  });
});
