import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, type ServerProcess, startServer, waitForHealthy } from '../support/server-process.ts';
import { type PrivateRedis, startPrivateRedis, stopAllFaultDependencies, timed } from './fault-support.ts';
import { type Customer, call, SESSION_SECRET, signUp, sleep } from './support.ts';

/*
 * Issue 11: when the shared rate-limit store (a PRIVATE redis-server here) is stopped or frozen, sign-in still
 * answers within 1 s, its limits are still enforced (in this instance's memory), the switch is logged once per
 * outage, health shows it, and the limits go back to Redis by themselves when it returns.
 */

const FAILURES_ALLOWED = 3;

let scratch = '';
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop('SIGKILL');
  stopAllFaultDependencies();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

interface Health {
  status: string;
  rateLimits: { counting: string; redisConfigured: boolean; redisReachable: boolean };
}

/** The health port (HEALTH_PORT): the public port says only up or down, the report with rateLimits is given here. */
let healthBase = '';

async function health(_base: string): Promise<Health> {
  // The health listener opens a moment after the shop's port answers.
  for (let tries = 0; ; tries++) {
    try {
      const res = await call<Health>(healthBase, 'GET', '/api/health');
      expect(res.status).toBe(200);
      return res.body;
    } catch (error) {
      if (tries >= 50) throw error;
      await sleep(100);
    }
  }
}

async function waitForCounting(base: string, counting: 'redis' | 'memory', timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if ((await health(base)).rateLimits.counting === counting) return Date.now() - started;
    await sleep(100);
  }
  throw new Error(`limits never counted in ${counting}`);
}

/**
 * Wrong passwords until refused, each timed; then the right one, which the limit also refuses (from this address).
 * Returns the slowest answer and the attempt that was refused.
 */
async function hammer(base: string, customer: Customer): Promise<{ slowestMs: number; refusedAt: number }> {
  let slowestMs = 0;
  for (let attempt = 1; attempt <= FAILURES_ALLOWED + 2; attempt++) {
    const { ms, result } = await timed(() =>
      call(base, 'POST', '/api/login', { body: { email: customer.email, password: `wrong-password-${attempt}` } }),
    );
    slowestMs = Math.max(slowestMs, ms);
    expect(result, `attempt ${attempt} answered`).toBeDefined();
    if (result?.status === 429) {
      expect(result.headers.get('retry-after')).toMatch(/^\d+$/);
      const right = await timed(() =>
        call(base, 'POST', '/api/login', { body: { email: customer.email, password: 'correct-horse-battery' } }),
      );
      slowestMs = Math.max(slowestMs, right.ms);
      expect(right.result?.status).toBe(429);
      return { slowestMs, refusedAt: attempt };
    }
    expect(result?.status, `attempt ${attempt}`).toBe(401);
  }
  throw new Error('the sign-in limit was never enforced');
}

describe('Redis stopped and frozen (private redis-server)', () => {
  it('sign-in answers within 1 s, limits hold in memory, health shows it, and Redis takes over again', async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-faults-redis-'));
    const redis: PrivateRedis = await startPrivateRedis();
    const healthPort = await freePort();
    healthBase = `http://127.0.0.1:${healthPort}`;
    server = startServer(
      {
        DATA_DIR: scratch,
        STATIC_DIR: path.join(scratch, 'no-web-build'),
        SESSION_SECRET,
        REDIS_URL: redis.url,
        SEED_DEMO_DATA: 'false',
        // Mail is delivered (to files under DATA_DIR): a customer signs up with the link the sign-up mails.
        JOBS_ENABLED: 'true',
        NODE_ENV: 'test',
        TEST_ONLY_FAST_PASSWORD_HASH: 'true',
        RATE_LIMIT_LOGIN_PER_ACCOUNT: String(FAILURES_ALLOWED),
        RATE_LIMIT_LOGIN_DELAY_MAX_MS: '0',
        RATE_LIMIT_NAMESPACE: `faults-${Date.now()}:`,
        HEALTH_PORT: String(healthPort),
      },
      await freePort(),
    );
    await waitForHealthy(server, 60_000);
    const base = server.url;
    await waitForCounting(base, 'redis', 5000);
    const figures: Record<string, unknown> = {};

    // Counting in Redis while it answers.
    const inRedis = await hammer(base, await signUp(base, 'redis-up'));
    expect(inRedis.refusedAt).toBe(FAILURES_ALLOWED + 1);
    figures.up = inRedis;

    // Frozen: the first command waits REDIS_COMMAND_TIMEOUT_MS at most, then memory takes over at once.
    const frozenCustomer = await signUp(base, 'redis-frozen');
    redis.freeze();
    const frozen = await hammer(base, frozenCustomer);
    expect(frozen.slowestMs).toBeLessThan(1000);
    expect(frozen.refusedAt).toBe(FAILURES_ALLOWED + 1);
    expect((await health(base)).rateLimits).toEqual({
      counting: 'memory',
      redisConfigured: true,
      redisReachable: false,
    });
    expect((await health(base)).status).toBe('degraded');
    redis.thaw();
    figures.frozen = { ...frozen, backToRedisMs: await waitForCounting(base, 'redis', 5000) };

    // Stopped: refused connections; same answer.
    const stoppedCustomer = await signUp(base, 'redis-stopped');
    await redis.stop();
    const stopped = await hammer(base, stoppedCustomer);
    expect(stopped.slowestMs).toBeLessThan(1000);
    expect(stopped.refusedAt).toBe(FAILURES_ALLOWED + 1);
    expect((await health(base)).rateLimits.counting).toBe('memory');
    await redis.start();
    figures.stopped = { ...stopped, backToRedisMs: await waitForCounting(base, 'redis', 10_000) };

    // Logged once per outage (two outages, two lines), and never a 500.
    const output = server.output();
    expect(output.match(/limits now count in memory/g)).toHaveLength(2);
    expect(output.match(/limits count in Redis again/g)?.length).toBeGreaterThanOrEqual(2);
    expect(output).not.toMatch(/"statusCode":500/);
    console.log('redis faults:', JSON.stringify(figures));
  });
});
