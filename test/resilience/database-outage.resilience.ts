import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, type ServerProcess, startServer, waitForHealthy } from '../support/server-process.ts';
import { type PrivatePostgres, startPrivatePostgres, stopAllFaultDependencies, timed } from './fault-support.ts';
import { type Customer, call, createPart, faultServerEnv, logInAdmin, type Reply, signUp, sleep } from './support.ts';

/*
 * A database that crashes or hangs costs 503s with Retry-After for as long as it lasts, never the process:
 * - PostgreSQL stopped with `-m immediate` (a crash, a failover) while requests hold connections checked out of the
 *   pool mid-transaction: those requests are answered 503, the process lives on, and serves again once the database
 *   is back.
 * - PostgreSQL frozen (SIGSTOP: connections stay open, nothing answers): a read is answered 503 at its deadline
 *   (REQUEST_DEADLINE_MS), not after the statement timeout, and health says not ready within 2 s.
 * Both on a PRIVATE cluster (fault-support.ts), never the shared one.
 */

const HEALTH_BOUND_MS = 2000;

const scratchDirs: string[] = [];
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop('SIGKILL');
  stopAllFaultDependencies();
  for (const dir of scratchDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function scratch(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `redline-${label}-`));
  scratchDirs.push(dir);
  return dir;
}

async function start(pgUrl: string, label: string, extra: Record<string, string>): Promise<ServerProcess> {
  const server = startServer(
    faultServerEnv(scratch(label), {
      DATABASE_URL: pgUrl,
      DB_CONNECT_TIMEOUT_MS: '1000',
      RATE_LIMIT_LOGIN_DELAY_MAX_MS: '0',
      ...extra,
    }),
    await freePort(),
  );
  servers.push(server);
  await waitForHealthy(server, 90_000);
  return server;
}

async function health(base: string): Promise<{ ms: number; status: number; retryAfter: string | null }> {
  const { ms, result } = await timed(() => call(base, 'GET', '/api/health'));
  return { ms, status: result?.status ?? 0, retryAfter: result?.headers.get('retry-after') ?? null };
}

async function untilReady(base: string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if ((await health(base)).status === 200) return Date.now() - started;
    await sleep(200);
  }
  throw new Error(`not ready again within ${timeoutMs} ms`);
}

/** A connection of the test's own to the private cluster; its loss when the cluster stops is expected. */
async function testClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** Until `count` backends wait on a lock (the requests are inside their transactions, blocked on the held row). */
async function untilWaitingOnLock(observer: pg.Client, count: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const { rows } = await observer.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and state = 'active'`,
    );
    if ((rows[0]?.n ?? 0) >= count) return;
    if (Date.now() - started > 20_000) throw new Error(`only ${rows[0]?.n} requests waited on the held lock`);
    await sleep(50);
  }
}

type Answer = { ms: number; result?: Reply<{ error?: { code: string } }>; error?: unknown };

function expect503(answer: Answer, what: string): void {
  expect(answer.error, `${what}: the request got no answer (${String(answer.error)})`).toBeUndefined();
  expect(answer.result?.status, `${what}: ${JSON.stringify(answer.result?.body)}`).toBe(503);
  expect(answer.result?.headers.get('retry-after'), what).toMatch(/^\d+$/);
  expect(answer.result?.body?.error?.code, what).toBe('service_unavailable');
}

/**
 * Runs `fault` while every customer's order is inside its transaction, waiting on the part's row that the test holds
 * locked: each order holds a connection checked out of the server's pool. The test's own connections are closed and
 * every order has answered when it returns, whatever `fault` did.
 */
async function withOrdersWaitingInTransactions(
  clusterUrl: string,
  partId: string,
  orders: (() => Promise<Answer>)[],
  fault: (inFlight: Promise<Answer>[], observer: pg.Client) => Promise<void>,
): Promise<void> {
  const holder = await testClient(clusterUrl);
  const observer = await testClient(clusterUrl);
  let inFlight: Promise<Answer>[] = [];
  try {
    await holder.query('begin');
    await holder.query('select id from parts where id = $1 for update', [partId]);
    inFlight = orders.map((order) => order());
    await untilWaitingOnLock(observer, orders.length);
    await fault(inFlight, observer);
  } finally {
    await Promise.allSettled(inFlight);
    await holder.end().catch(() => {});
    await observer.end().catch(() => {});
  }
}

describe('a database that crashes or hangs (private cluster)', () => {
  it('stopped -m immediate mid-transaction: in-flight requests get 503, the process lives and serves again', async () => {
    const cluster: PrivatePostgres = await startPrivatePostgres();
    const server = await start(cluster.url, 'db-crash', {
      // Long enough that the blocked transactions are still waiting when the cluster stops.
      DB_STATEMENT_TIMEOUT_MS: '30000',
      // The job runner's own connections (pg-boss) must survive the crash too.
      JOBS_ENABLED: 'true',
    });
    const base = server.url;
    const admin = await logInAdmin(base);
    const part = await createPart(base, admin, { name: 'Crash Caliper', price: 12, stock: 10_000 });
    const customers: Customer[] = [];
    for (const n of [1, 2, 3, 4]) customers.push(await signUp(base, `db-crash-${n}`));
    const order = (token: string) =>
      call<{ error?: { code: string } }>(base, 'POST', '/api/myorder', {
        token,
        body: { partId: part._id, quantity: 1 },
      });
    expect((await order(customers[0]?.token ?? '')).status).toBe(201);

    await withOrdersWaitingInTransactions(
      cluster.url,
      part._id,
      customers.map((customer) => () => timed(() => order(customer.token))),
      async (inFlight) => {
        cluster.stop();
        const answers = await Promise.all(inFlight);
        answers.forEach((answer, i) => {
          expect503(answer, `order ${i} in flight when the database stopped`);
        });
        expect(server.child.exitCode, server.output().slice(-3000)).toBeNull();
        expect(server.child.signalCode).toBeNull();

        // While it is down: answered, 503 with Retry-After, by the same process.
        const whileDown = await timed(() => order(customers[1]?.token ?? ''));
        expect503(whileDown, 'an order while the database is down');
        const healthDown = await health(base);
        expect(healthDown.status).toBe(503);
        expect(healthDown.ms).toBeLessThan(HEALTH_BOUND_MS);
      },
    );

    cluster.start();
    const readyAgainMs = await untilReady(base, 30_000);
    const after = await order(customers[2]?.token ?? '');
    expect(after.status, JSON.stringify(after.body)).toBe(201);
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).not.toMatch(/Unhandled 'error' event|"statusCode":500/);
    console.log('database crash mid-transaction:', JSON.stringify({ readyAgainMs }));
  });

  it('transactions whose connections PostgreSQL ends (as at the thaw after a freeze past DB_IDLE_IN_TRANSACTION_TIMEOUT_MS) cost 503s, not the process', async () => {
    // At the thaw after a freeze, PostgreSQL ends the transactions that sat idle past the bound by closing their
    // connections (25P03, FATAL). Whether a transaction sits between its statements at the moment of a freeze is
    // chance, so the test ends the connections itself, the same way (FATAL, then the socket closed), while every
    // order's transaction is open and waiting on a row the test holds: each pooled client loses its connection while
    // checked out, the case that killed the process.
    const cluster = await startPrivatePostgres();
    const server = await start(cluster.url, 'db-idle', { DB_STATEMENT_TIMEOUT_MS: '30000' });
    const base = server.url;
    const admin = await logInAdmin(base);
    const part = await createPart(base, admin, { name: 'Idle Sprocket', price: 7, stock: 1_000 });
    const customers: Customer[] = [];
    for (const n of [1, 2, 3, 4, 5, 6]) customers.push(await signUp(base, `db-idle-${n}`));
    const order = (token: string) =>
      call<{ error?: { code: string } }>(base, 'POST', '/api/myorder', {
        token,
        body: { partId: part._id, quantity: 1 },
      });

    await withOrdersWaitingInTransactions(
      cluster.url,
      part._id,
      customers.map((customer) => () => timed(() => order(customer.token))),
      async (inFlight, observer) => {
        const { rows } = await observer.query<{ ended: boolean }>(
          `select pg_terminate_backend(pid) as ended from pg_stat_activity
            where wait_event_type = 'Lock' and state = 'active' and pid <> pg_backend_pid()`,
        );
        expect(rows.filter((row) => row.ended)).toHaveLength(customers.length);
        const answers = await Promise.all(inFlight);
        answers.forEach((answer, i) => {
          expect503(answer, `order ${i} whose connection PostgreSQL ended`);
        });
        expect(server.child.exitCode, server.output().slice(-3000)).toBeNull();
        expect(server.child.signalCode).toBeNull();
      },
    );
    const after = await order(customers[0]?.token ?? '');
    expect(after.status, JSON.stringify(after.body)).toBe(201);
    expect(server.output()).not.toMatch(/Unhandled 'error' event|"statusCode":500/);
  });

  it('frozen: a read is answered 503 at its deadline, health says not ready within 2 s, and it serves after', async () => {
    const deadlineMs = 2000;
    const cluster = await startPrivatePostgres();
    // The statement timeout stays at its default (15 s): only the request deadline can answer sooner.
    const server = await start(cluster.url, 'db-freeze', { REQUEST_DEADLINE_MS: String(deadlineMs) });
    const base = server.url;
    const customer = await signUp(base, 'db-freeze');
    expect((await call(base, 'GET', '/api/myorder', { token: customer.token })).status).toBe(200);

    const figures: Record<string, number> = {};
    cluster.freeze();
    try {
      const frozenAt = Date.now();
      // Reads no cache can answer: a search never asked before, and a signed-in customer's own orders.
      const [search, mine, healthFrozen] = await Promise.all([
        timed(() => call<{ error?: { code: string } }>(base, 'GET', `/api/part?q=frozen${Date.now()}`)),
        timed(() => call<{ error?: { code: string } }>(base, 'GET', '/api/myorder', { token: customer.token })),
        health(base),
      ]);
      expect503(search, 'a catalogue search on a frozen database');
      expect503(mine, "a customer's orders on a frozen database");
      for (const [label, answer] of [
        ['search', search],
        ['myorder', mine],
      ] as const) {
        expect(answer.ms, `${label} took ${Math.round(answer.ms)} ms`).toBeGreaterThanOrEqual(deadlineMs - 100);
        expect(answer.ms, `${label} took ${Math.round(answer.ms)} ms`).toBeLessThan(deadlineMs + 1500);
        figures[label] = Math.round(answer.ms);
      }
      expect(healthFrozen.status).toBe(503);
      expect(healthFrozen.retryAfter).toMatch(/^\d+$/);
      expect(healthFrozen.ms).toBeLessThan(HEALTH_BOUND_MS);
      figures.health = Math.round(healthFrozen.ms);
      figures.sinceFreeze = Date.now() - frozenAt;
    } finally {
      cluster.thaw();
    }
    figures.readyAgainMs = await untilReady(base, 30_000);
    const after = await call(base, 'GET', '/api/myorder', { token: customer.token });
    expect(after.status).toBe(200);
    expect(server.child.exitCode).toBeNull();
    // The requests answered at their deadline finished after the thaw: their late outcome is not a line each, the
    // deadline's answers are one line for the outage.
    await sleep(500);
    const output = server.output();
    expect(output).not.toMatch(/"statusCode":500|Reply was already sent|Promise errored/);
    expect(output).toMatch(/dependency unavailable; answered 503\/507/);
    console.log('database frozen, read deadline:', JSON.stringify(figures));
  });
});
