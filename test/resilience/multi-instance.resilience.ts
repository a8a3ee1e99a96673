import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openPostgres } from '../../src/server/db/client.ts';
import { runMigrations } from '../../src/server/db/migrate.ts';
import { parts } from '../../src/server/db/schema.ts';
import { seedDemoData } from '../../src/server/db/seed.ts';
import { seedParts } from '../../src/server/db/seed-data.ts';
import { withAdminClient } from '../support/postgres-admin.ts';
import { freePorts, type ServerProcess, startServer, waitForHealthy } from '../support/server-process.ts';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  allOrders,
  type Customer,
  call,
  createPart,
  logInAdmin,
  type Reply,
  SESSION_SECRET,
  scratchDatabase,
  signUp,
  sleep,
  stockOf,
  type WirePart,
} from './support.ts';

/*
 * Several instances: two production server processes on different ports against ONE PostgreSQL, sharing the
 * session secret and a Redis for the rate limits, as they would behind a load balancer.
 */

const REDIS_URL = process.env.RESILIENCE_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LOGIN_PER_ACCOUNT = 4;
const LOGIN_PER_IP = 14;

// Made before the first test, not at import: when every test is skipped (no TEST_DATABASE_URL) no hook runs.
let scratch = '';
beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-multi-'));
});
const running = new Set<ServerProcess>();
const cleanups: (() => Promise<void>)[] = [];

function instanceEnv(databaseUrl: string, namespace: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(scratch, 'unused'),
    SESSION_SECRET,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    SEED_DEMO_DATA: 'true',
    REDIS_URL,
    RATE_LIMIT_NAMESPACE: namespace,
    RATE_LIMIT_WINDOW_SECONDS: '120',
    RATE_LIMIT_LOGIN_PER_ACCOUNT: String(LOGIN_PER_ACCOUNT),
    RATE_LIMIT_LOGIN_PER_IP: String(LOGIN_PER_IP),
    LOG_LEVEL: 'warn',
    STATIC_DIR: path.join(scratch, 'no-web-build'),
    // The race sells the last units to eight customers: the per-customer hold limit (issue 12, on by default, its
    // own tests in fulfilment.test.ts) would turn some last-unit orders into 422 hold_limit instead of stock_out.
    ORDER_HOLD_LIMIT: 'off',
  };
}

/** Starts both instances at the same moment, each on a port the OS says is free, and waits until both serve. */
async function startPair(databaseUrl: string): Promise<[ServerProcess, ServerProcess]> {
  const namespace = `redline-resilience:${crypto.randomUUID()}:`;
  const ports = await freePorts(2);
  const pair = ports.map((port) => startServer(instanceEnv(databaseUrl, namespace), port)) as [
    ServerProcess,
    ServerProcess,
  ];
  for (const server of pair) {
    running.add(server);
    void server.exited.then(() => running.delete(server));
  }
  await Promise.all(pair.map((server) => waitForHealthy(server, 60_000)));
  return pair;
}

/** The shared rate limits need the Redis; without it the servers allow every request and the tests would mislead. */
async function expectRedis(): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch {
    throw new Error(`No Redis at ${REDIS_URL}: start one (redis-server --daemonize yes) or set RESILIENCE_REDIS_URL`);
  } finally {
    redis.disconnect();
  }
}

/**
 * The PostgreSQL backend of `server`'s listening connection (every instance names its listener the same): the one
 * whose client port belongs to a socket that server's process holds. The test runs on the database's machine.
 */
async function listenerBackendOf(server: ServerProcess, url: string): Promise<number> {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${server.child.pid}/fd`)) {
    try {
      const socket = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${server.child.pid}/fd/${fd}`));
      if (socket?.[1]) inodes.add(socket[1]);
    } catch {
      // Closed since it was listed.
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const lines = fs.existsSync(table) ? fs.readFileSync(table, 'utf8').trim().split('\n').slice(1) : [];
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1]?.split(':')[1];
      if (local && inodes.has(fields[9] ?? '')) ports.add(Number.parseInt(local, 16));
    }
  }
  const { rows } = await withAdminClient(url, (client) =>
    client.query<{ pid: number; client_port: number; state: string }>(
      `select pid, client_port, state from pg_stat_activity
       where datname = current_database() and application_name = 'redline-listener'`,
    ),
  );
  const mine = rows.filter((row) => ports.has(row.client_port));
  if (mine.length !== 1) throw new Error(`expected one listener backend of this server, saw ${JSON.stringify(rows)}`);
  return (mine[0] as { pid: number }).pid;
}

/** Thawed by every test that stops one, whatever happened: a stopped backend must not outlive its test. */
const frozenBackends = new Set<number>();

function thaw(pid: number): void {
  frozenBackends.delete(pid);
  try {
    process.kill(pid, 'SIGCONT');
  } catch {
    // Gone already.
  }
}

/** Stops a backend while it waits for its client (never mid-statement, where it could hold a lock others need). */
async function freezeIdle(pid: number, url: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    process.kill(pid, 'SIGSTOP');
    frozenBackends.add(pid);
    const { rows } = await withAdminClient(url, (client) =>
      client.query<{ state: string; wait_event: string | null }>(
        'select state, wait_event from pg_stat_activity where pid = $1',
        [pid],
      ),
    );
    if (rows[0]?.state === 'idle' && rows[0].wait_event === 'ClientRead') return;
    thaw(pid);
    await sleep(20);
  }
  throw new Error(`backend ${pid} was never idle`);
}

afterAll(async () => {
  for (const pid of [...frozenBackends]) thaw(pid);
  for (const server of running) await server.stop('SIGKILL');
  for (const cleanup of cleanups) await cleanup();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe.runIf(process.env.TEST_DATABASE_URL)('two instances on one PostgreSQL', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let adminToken: string;
  let databaseUrl: string;
  /** Every sign-in this machine sent to the pair: all of them count on the one shared per-IP limit. */
  let signIns = 0;

  beforeAll(async () => {
    await expectRedis();
    const database = await scratchDatabase('multi');
    cleanups.push(database.drop);
    databaseUrl = database.url;
    // The database is fresh and unmigrated: both instances migrate and seed it at once.
    [a, b] = await startPair(database.url);
    adminToken = await logInAdmin(a.url);
    signIns++;
  });

  it('both instances started together on a fresh database without failing, and see one another’s data', async () => {
    expect(a.child.exitCode).toBeNull();
    expect(b.child.exitCode).toBeNull();
    for (const server of [a, b]) {
      // The report's details are an admin's (the public learns only up or down).
      const health = await call<{ database: { driver: string } }>(server.url, 'GET', '/api/health', {
        token: adminToken,
      });
      expect(health.status).toBe(200);
      expect(health.body.database.driver).toBe('postgres');
    }
    // Seeded once, not twice.
    const users = await call<{ email: string }[]>(b.url, 'GET', '/api/user', { token: adminToken });
    expect(users.status).toBe(200);
    expect(users.body.filter((u) => u.email === ADMIN_EMAIL)).toHaveLength(1);
    const partsA = await call<unknown[]>(a.url, 'GET', '/api/part?limit=100');
    const partsB = await call<unknown[]>(b.url, 'GET', '/api/part?limit=100');
    expect(partsA.body).toHaveLength(seedParts.length);
    expect(partsB.body).toEqual(partsA.body);
  });

  it('sells exactly the last units when orders race over both instances', async () => {
    const STOCK = 30;
    const REQUESTS = 120;
    const part = await createPart(a.url, adminToken, { name: 'Last units', price: 42.5, stock: STOCK });
    const customers: Customer[] = [];
    for (let i = 0; i < 8; i++) customers.push(await signUp(i % 2 ? b.url : a.url, `race-${i}`));
    // Both instances open their database connections before the race, so neither one's cold pool lets the
    // other sell every unit (seen on a busy machine) and the race below is really spread over the two.
    await Promise.all([a, b].flatMap((server) => Array.from({ length: 10 }, () => stockOf(server.url, part._id))));

    const answers = await Promise.all(
      Array.from({ length: REQUESTS }, (_, n) =>
        call<{ _id?: string; error?: { code: string } }>(n % 2 ? b.url : a.url, 'POST', '/api/myorder', {
          token: (customers[n % customers.length] as Customer).token,
          body: { partId: part._id, quantity: 1, address: `race ${n}`, phone: '+1 555 0100' },
        }),
      ),
    );
    const statuses = answers.map((r) => (r.status === 422 ? `422 ${r.body.error?.code}` : String(r.status)));
    const tally = Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((x) => x === s).length]));
    expect(tally).toEqual({ '201': STOCK, '422 stock_out': REQUESTS - STOCK });
    // Both instances sold some: the race really was spread over the two.
    expect(answers.filter((r, n) => r.status === 201 && n % 2 === 0).length).toBeGreaterThan(0);
    expect(answers.filter((r, n) => r.status === 201 && n % 2 === 1).length).toBeGreaterThan(0);

    expect(await stockOf(a.url, part._id)).toBe(0);
    expect(await stockOf(b.url, part._id)).toBe(0);
    const sold = (await allOrders(b.url, adminToken)).filter((o) => o.partId === part._id);
    expect(sold).toHaveLength(STOCK);
    expect(sold.reduce((sum, o) => sum + o.quantity, 0)).toBe(STOCK);
    expect(new Set(sold.map((o) => o._id)).size).toBe(STOCK);
  });

  it('a token from instance A works on B, and after Log Out on A it is refused on B at once', async () => {
    const customer = await signUp(a.url, 'session');
    const onB = await call<{ email: string }>(b.url, 'GET', '/api/me', { token: customer.token });
    expect(onB.status).toBe(200);
    expect(onB.body.email).toBe(customer.email);

    expect((await call(a.url, 'POST', '/api/logout', { token: customer.token })).status).toBe(204);
    const afterLogout = await call<{ error: { code: string } }>(b.url, 'GET', '/api/me', { token: customer.token });
    expect(afterLogout.status).toBe(401);
    expect((await call(a.url, 'GET', '/api/me', { token: customer.token })).status).toBe(401);
    const order = await call(b.url, 'GET', '/api/myorder', { token: customer.token });
    expect(order.status).toBe(401);
  });

  it('counts failed sign-ins per account across both instances', async () => {
    const victim = await signUp(b.url, 'limited');
    const wrong = { email: victim.email, password: 'not-the-password' };
    // Half the allowed failures on each instance: neither alone reaches the limit.
    for (let n = 0; n < LOGIN_PER_ACCOUNT; n++) {
      const res = await call(n % 2 ? b.url : a.url, 'POST', '/api/login', { body: wrong });
      signIns++;
      expect(res.status, `failed sign-in ${n + 1}`).toBe(401);
    }
    for (const server of [a, b]) {
      const res = await call<{ error: { code: string } }>(server.url, 'POST', '/api/login', { body: wrong });
      signIns++;
      expect(res.status).toBe(429);
      expect(res.body.error.code).toBe('rate_limited');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('counts sign-ins per IP across both instances', async () => {
    // Every sign-in from this machine counts on the per-IP limit, whichever instance answers. Find how many are
    // left (earlier tests used some), spend them alternately on A and B, and the next one is refused on both.
    const attempts: number[] = [];
    let refused: Reply<{ error: { code: string } }> | undefined;
    for (let n = 0; n <= LOGIN_PER_IP && !refused; n++) {
      const res = await call<{ error: { code: string } }>(n % 2 ? b.url : a.url, 'POST', '/api/login', {
        body: { email: `nobody-${n}-${crypto.randomBytes(3).toString('hex')}@example.com`, password: 'whatever1' },
      });
      if (res.status === 429) refused = res;
      else attempts.push(res.status);
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(attempts.every((status) => status === 401)).toBe(true);
    // Refused exactly when both instances together reached the limit; one alone would have allowed LOGIN_PER_IP.
    expect(signIns + attempts.length).toBe(LOGIN_PER_IP);
    const other = await call(attempts.length % 2 ? a.url : b.url, 'POST', '/api/login', {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    expect(other.status).toBe(429);
  });
  it('an instance whose listening connection went silent stops serving kept answers within seconds', async () => {
    // Its backend frozen: the connection stays open and says nothing, as when a NAT or firewall drops the flow.
    const part = await createPart(a.url, adminToken, { name: 'Silent listener', price: 10, stock: 5 });
    const priceOn = async (server: ServerProcess) =>
      (await call<WirePart>(server.url, 'GET', `/api/part/${part._id}`)).body.price;
    expect(await priceOn(b)).toBe(10);
    expect(await priceOn(b)).toBe(10);
    const pid = await listenerBackendOf(b, databaseUrl);
    await freezeIdle(pid, databaseUrl);
    try {
      const patched = await call(a.url, 'PATCH', `/api/part/${part._id}`, { token: adminToken, body: { price: 11 } });
      expect(patched.status).toBe(200);
      // B writes nothing, so its idle probe (a check after 2 s without one, answered within 1 s) is what notices.
      const acknowledged = performance.now();
      while ((await priceOn(b)) !== 11) {
        expect(performance.now() - acknowledged, 'B still answers the kept price').toBeLessThan(6000);
        await sleep(100);
      }
      expect(b.output()).toContain('catalogue cache: lost the database notifications');
      // A write on B waits no longer than its check's bound, and B's next read shows it.
      const writing = performance.now();
      const own = await call(b.url, 'PATCH', `/api/part/${part._id}`, { token: adminToken, body: { price: 12 } });
      expect(own.status).toBe(200);
      expect(performance.now() - writing).toBeLessThan(2000);
      expect(await priceOn(b)).toBe(12);
      // B listens again on a new connection while the old backend is still frozen, and says so.
      const since = performance.now();
      for (;;) {
        const health = await call<{ catalogCache?: { listening: boolean } }>(b.url, 'GET', '/api/health', {
          token: adminToken,
        });
        if (health.body.catalogCache?.listening) break;
        expect(performance.now() - since, 'B is listening again').toBeLessThan(15_000);
        await sleep(100);
      }
      expect(await listenerBackendOf(b, databaseUrl)).not.toBe(pid);
    } finally {
      thaw(pid);
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('two instances starting at once on a fresh database', () => {
  it('both start, migrate once and seed once, again and again', async () => {
    for (let round = 0; round < 3; round++) {
      const database = await scratchDatabase(`fresh${round}`);
      cleanups.push(database.drop);
      const [first, second] = await startPair(database.url);
      const token = await logInAdmin(second.url);
      const users = await call<{ email: string }[]>(first.url, 'GET', '/api/user', { token });
      expect(users.body.filter((u) => u.email === ADMIN_EMAIL)).toHaveLength(1);
      const catalogue = await call<unknown[]>(first.url, 'GET', '/api/part?limit=100');
      expect(catalogue.status).toBe(200);
      expect(catalogue.body).toHaveLength(seedParts.length);
      expect(await first.stop('SIGTERM')).toBe(0);
      expect(await second.stop('SIGTERM')).toBe(0);
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('migrating and seeding from two processes at once', () => {
  // The same race as above without the cost of two servers: both see an empty database and both try to seed it.
  it('migrates once, seeds once, and neither fails', async () => {
    const database = await scratchDatabase('seed');
    cleanups.push(database.drop);
    const handles: DatabaseHandle[] = [openPostgres(database.url, 2), openPostgres(database.url, 2)];
    const quiet = { info: () => {}, warn: () => {} };
    try {
      await Promise.all(handles.map((handle) => runMigrations(handle)));
      const results = await Promise.allSettled(
        handles.map((handle) => seedDemoData(handle.db, { ADMIN_EMAIL, ADMIN_PASSWORD }, quiet)),
      );
      const failures = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
      expect(failures).toEqual([]);
      const seeded = results.map((r) => (r.status === 'fulfilled' ? r.value.seeded : null));
      expect(seeded.sort()).toEqual([false, true]);
      const { db } = handles[0] as DatabaseHandle;
      const [counts] = await db
        .select({ users: sql<number>`(select count(*)::int from users)`, parts: sql<number>`count(*)::int` })
        .from(parts);
      expect(counts).toEqual({ users: 1, parts: seedParts.length });
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
    }
  });
});
