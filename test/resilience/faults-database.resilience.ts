import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, type ServerProcess, startServer, waitForHealthy } from '../support/server-process.ts';
import {
  type PrivatePostgres,
  percentile,
  startPrivatePostgres,
  stopAllFaultDependencies,
  timed,
} from './fault-support.ts';
import {
  allOrders,
  type Customer,
  call,
  createPart,
  faultServerEnv,
  logInAdmin,
  signUp,
  sleep,
  type WirePart,
} from './support.ts';

/*
 * Issue 11: a PostgreSQL that stops, or freezes (SIGSTOP on every process of a PRIVATE cluster, never the shared
 * one), is answered 503 with Retry-After within the configured bounds, never 500 and never a hang; health says so
 * within 2 s; and when the database is back the same server process serves again, with every confirmed order.
 */

const CONNECT_TIMEOUT_MS = 1000;
const STATEMENT_TIMEOUT_MS = 1500;
/** A statement on a frozen server: the client gives up a second after the server should have cancelled it. */
const CLIENT_WAIT_MS = STATEMENT_TIMEOUT_MS + 1000;
/** The longest a request may take in an outage: a statement and its transaction's rollback, plus a connect. */
const REQUEST_BOUND_MS = 2 * CLIENT_WAIT_MS + CONNECT_TIMEOUT_MS + 1500;

let scratch = '';
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop('SIGKILL');
  stopAllFaultDependencies();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

interface Outcome {
  label: string;
  ms: number;
  status: number | 'network error';
  retryAfter: string | null;
  code: string | undefined;
}

/** One of each kind of request the shop serves, all at once, `rounds` times. */
async function burst(base: string, customer: Customer, part: WirePart, rounds: number): Promise<Outcome[]> {
  const kinds: [string, () => ReturnType<typeof call<{ error?: { code: string } }>>][] = [
    ['GET /api/part', () => call(base, 'GET', '/api/part')],
    ['GET /api/myorder', () => call(base, 'GET', '/api/myorder', { token: customer.token })],
    [
      'POST /api/myorder',
      () => call(base, 'POST', '/api/myorder', { token: customer.token, body: { partId: part._id, quantity: 1 } }),
    ],
    [
      'POST /api/login',
      () => call(base, 'POST', '/api/login', { body: { email: customer.email, password: 'correct-horse-battery' } }),
    ],
  ];
  const outcomes: Outcome[] = [];
  for (let round = 0; round < rounds; round++) {
    const results = await Promise.all(
      kinds.map(async ([label, send]) => {
        const { ms, result } = await timed(send);
        return {
          label,
          ms,
          status: result?.status ?? ('network error' as const),
          retryAfter: result?.headers.get('retry-after') ?? null,
          code: result?.body?.error?.code,
        };
      }),
    );
    outcomes.push(...results);
  }
  return outcomes;
}

async function healthWithin(base: string): Promise<{ ms: number; status: number; code?: string }> {
  const { ms, result } = await timed(() => call<{ error?: { code: string } }>(base, 'GET', '/api/health'));
  return { ms, status: result?.status ?? 0, code: result?.body?.error?.code };
}

/** From the moment of a fault: how long until health says 503 (each answer is also bounded by itself). */
async function untilNotReady(base: string, since: number): Promise<{ ms: number; code?: string }> {
  for (;;) {
    const health = await healthWithin(base);
    expect(health.ms).toBeLessThan(2000);
    if (health.status === 503) return { ms: Date.now() - since, code: health.code };
    if (Date.now() - since > 10_000) throw new Error('health never said 503');
  }
}

async function waitUntilReady(base: string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if ((await healthWithin(base)).status === 200) return Date.now() - started;
    await sleep(200);
  }
  throw new Error(`not ready again within ${timeoutMs} ms`);
}

function expectAllUnavailable(outcomes: Outcome[], what: string): void {
  for (const outcome of outcomes) {
    expect(outcome.status, `${what}: ${outcome.label}`).toBe(503);
    expect(outcome.retryAfter, `${what}: ${outcome.label}`).toMatch(/^\d+$/);
    expect(outcome.code, `${what}: ${outcome.label}`).toBe('service_unavailable');
    expect(outcome.ms, `${what}: ${outcome.label} took ${Math.round(outcome.ms)} ms`).toBeLessThan(REQUEST_BOUND_MS);
  }
}

function summary(outcomes: Outcome[]) {
  const ms = outcomes.map((o) => o.ms);
  return { requests: outcomes.length, p50: Math.round(percentile(ms, 50)), max: Math.round(Math.max(...ms)) };
}

describe('PostgreSQL stopped and frozen (private cluster)', () => {
  it('answers 503 + Retry-After within bounds, health 503 within 2 s, and recovers without a restart', async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-faults-db-'));
    const pg: PrivatePostgres = await startPrivatePostgres();
    server = startServer(
      faultServerEnv(scratch, {
        DATABASE_URL: pg.url,
        DB_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
        DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
        HEALTH_CHECK_TIMEOUT_MS: '1000',
        RATE_LIMIT_LOGIN_DELAY_MAX_MS: '0',
      }),
      await freePort(),
    );
    await waitForHealthy(server, 60_000);
    const base = server.url;
    const admin = await logInAdmin(base);
    const part = await createPart(base, admin, { name: 'Fault Brake', price: 10, stock: 100_000 });
    const customer = await signUp(base, 'faults-db');
    const confirmed: string[] = [];
    const placeOne = async () => {
      const res = await call<{ _id: string }>(base, 'POST', '/api/myorder', {
        token: customer.token,
        body: { partId: part._id, quantity: 1 },
      });
      expect(res.status).toBe(201);
      confirmed.push(res.body._id);
    };
    await placeOne();
    const figures: Record<string, unknown> = {};

    // 1. Stopped: connections are refused.
    pg.stop();
    const healthStopped = await untilNotReady(base, Date.now());
    expect(healthStopped.code).toBe('database_unreachable');
    expect(healthStopped.ms).toBeLessThan(2000);
    const stopped = await burst(base, customer, part, 5);
    expectAllUnavailable(stopped, 'stopped');
    pg.start();
    const backAfterStop = await waitUntilReady(base, 20_000);
    await placeOne();
    figures.stopped = { health: Math.round(healthStopped.ms), ...summary(stopped), readyAgainMs: backAfterStop };

    // 2. Frozen: connections stay open and nothing answers, not even a cancel.
    pg.freeze();
    const healthFrozen = await untilNotReady(base, Date.now());
    expect(healthFrozen.code).toBe('database_unreachable');
    expect(healthFrozen.ms).toBeLessThan(2000);
    const frozen = await burst(base, customer, part, 3);
    expectAllUnavailable(frozen, 'frozen');
    // Health keeps answering within its bound for as long as the database hangs.
    const healthStillFrozen = await healthWithin(base);
    expect(healthStillFrozen.status).toBe(503);
    expect(healthStillFrozen.ms).toBeLessThan(2000);
    pg.thaw();
    const backAfterFreeze = await waitUntilReady(base, 30_000);
    await placeOne();
    figures.frozen = { health: Math.round(healthFrozen.ms), ...summary(frozen), readyAgainMs: backAfterFreeze };

    // The same process serves on, and every confirmed order is there.
    expect(server.child.exitCode).toBeNull();
    const orders = await allOrders(base, await logInAdmin(base));
    const ids = new Set(orders.map((order) => order._id));
    for (const id of confirmed) expect(ids.has(id), `confirmed order ${id}`).toBe(true);
    expect(server.output()).not.toMatch(/"statusCode":500/);
    console.log('database faults:', JSON.stringify(figures));
  });

  it('a graceful stop held up by a frozen database answers what it holds with 503 and exits 0 at its cap', async () => {
    const pg = await startPrivatePostgres();
    const dir = fs.mkdtempSync(path.join(scratch || os.tmpdir(), 'stop-'));
    const stopping = startServer(
      faultServerEnv(dir, {
        DATABASE_URL: pg.url,
        // Statements may wait far longer than the stop may take: the cap is what ends it.
        DB_STATEMENT_TIMEOUT_MS: '60000',
        SHUTDOWN_TIMEOUT_SECONDS: '3',
      }),
      await freePort(),
    );
    await waitForHealthy(stopping, 60_000);
    const base = stopping.url;
    const admin = await logInAdmin(base);
    const part = await createPart(base, admin, { name: 'Stop Pads', price: 3, stock: 1000 });
    const customer = await signUp(base, 'faults-stop');
    pg.freeze();
    try {
      // Requests that will wait on the frozen database until the stop's cap.
      const held = Array.from({ length: 4 }, () =>
        timed(() =>
          call<{ error?: { code: string } }>(base, 'POST', '/api/myorder', {
            token: customer.token,
            body: { partId: part._id, quantity: 1 },
          }),
        ),
      );
      await sleep(500);
      const signalled = Date.now();
      stopping.child.kill('SIGTERM');
      const [code, answers] = await Promise.all([stopping.exited, Promise.all(held)]);
      const stoppedMs = Date.now() - signalled;
      expect(code).toBe(0);
      expect(stoppedMs).toBeLessThan(3000 + 2000);
      for (const { result } of answers) {
        expect(result?.status).toBe(503);
        expect(result?.headers.get('retry-after')).toBe('5');
        expect(result?.body?.error?.code).toBe('service_unavailable');
      }
      expect(stopping.output()).toMatch(/graceful stop reached its time cap/);
      console.log('graceful stop at its cap:', JSON.stringify({ stoppedMs, answered: answers.length }));
    } finally {
      pg.thaw();
    }
  });
});
