import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser, TEST_SESSION_SECRET, type TestUser, testConfig } from '../../../test/support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.ts';
import { buildApp } from '../app.ts';
import { LISTENER_APPLICATION_NAME, listenPostgres } from '../db/notifications.ts';
import { rowsOf } from '../db/rows-of.ts';
import { insertPart } from '../modules/orders/order-test-helpers.ts';
import type { CatalogReadCache } from './catalog-read-cache.ts';

/*
 * The listening connection's peer vanishes without a word (a dropped NAT or firewall flow: no RST, no FIN). Here its
 * backend is frozen with SIGSTOP: the socket stays open, the kernel still acknowledges, nothing ever answers. The
 * test process runs on the PostgreSQL machine with the right to signal its backends (root); a frozen backend is
 * always thawed after each test, whatever happened.
 */

const canSignalBackends = process.env.TEST_DATABASE_URL !== undefined && process.getuid?.() === 0;

/** Reconnects wait this long, so the lost state lasts long enough to be looked at. */
const RETRY_MS = 4000;

describe.runIf(canSignalBackends)('catalogue read cache with a silently dead listening connection [postgres]', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let admin: TestUser;
  let log = '';
  const frozen = new Set<number>();

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const url = database.url;
    if (!url) throw new Error('no url');
    database.listen = (channel, events) =>
      listenPostgres(url, channel, events, { connectTimeoutMs: 5000, retryMs: RETRY_MS, maxRetryMs: RETRY_MS });
    const stream = new Writable({
      write(chunk, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    app = await buildApp({
      config: testConfig(),
      database,
      sessionSecret: TEST_SESSION_SECRET,
      logger: { level: 'warn', stream },
    });
    await app.ready();
    admin = await createUser({ driver: 'postgres', app, database, config: testConfig() }, { admin: true });
  });

  afterEach(async () => {
    for (const pid of frozen) thaw(pid);
    frozen.clear();
    // The next test starts with a listening connection again.
    if (app) await eventually(() => cacheOf(app).listening, 15_000);
  });

  afterAll(async () => {
    for (const pid of frozen) thaw(pid);
    await app?.close();
    await database?.close();
  });

  function cacheOf(instance: FastifyInstance): CatalogReadCache {
    if (!instance.catalogCache) throw new Error('the catalogue cache is not on');
    return instance.catalogCache;
  }

  /** The backends of this database's listening connections. */
  async function listenerBackends(): Promise<number[]> {
    const result = await database.db.execute(
      sql`select pid from pg_stat_activity
          where datname = current_database() and application_name = ${LISTENER_APPLICATION_NAME}`,
    );
    return rowsOf<{ pid: number }>(result).map((row) => Number(row.pid));
  }

  /**
   * Stops the listening backend while it waits for its client, never in the middle of a statement (a backend frozen
   * inside a NOTIFY's commit would hold the lock every other NOTIFY needs).
   */
  async function freezeListener(): Promise<number> {
    let backends = await listenerBackends();
    // A backend thawed by the last test may take a moment to see its connection closed and leave.
    for (let wait = 0; backends.length !== 1 && wait < 100; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      backends = await listenerBackends();
    }
    const [pid] = backends;
    if (pid === undefined || backends.length !== 1) throw new Error(`expected one listener backend: ${backends}`);
    for (let attempt = 0; attempt < 50; attempt++) {
      process.kill(pid, 'SIGSTOP');
      frozen.add(pid);
      const result = await database.db.execute(sql`select state, wait_event from pg_stat_activity where pid = ${pid}`);
      const [row] = rowsOf<{ state: string; wait_event: string | null }>(result);
      if (row?.state === 'idle' && row.wait_event === 'ClientRead') return pid;
      thaw(pid);
      frozen.delete(pid);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the listener backend was never idle');
  }

  function thaw(pid: number): void {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // Gone already.
    }
  }

  async function eventually(check: () => boolean, timeoutMs: number): Promise<number> {
    const started = performance.now();
    while (!check()) {
      if (performance.now() - started > timeoutMs) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return performance.now() - started;
  }

  const readPrice = async (id: string) =>
    (await app.inject({ method: 'GET', url: `/api/part/${id}` })).json<{ price: number }>().price;

  async function healthReport() {
    const res = await app.inject({ method: 'GET', url: '/api/health', headers: admin.headers });
    return res.json<{ status: string; catalogCache?: { listening: boolean } }>();
  }

  it("a write's catch-up that goes unanswered drops the connection at once: reads go to the database, health says so", async () => {
    const cache = cacheOf(app);
    cache.clear();
    const part = await insertPart(database.db, { name: 'Frozen One', priceCents: 1000 });
    await app.catalogCache?.caughtUp();
    expect(await readPrice(part.id)).toBe(10);
    expect(await readPrice(part.id)).toBe(10);
    expect(cache.size).toBe(1);
    expect(await healthReport()).toMatchObject({ status: 'ok', catalogCache: { listening: true } });

    const pid = await freezeListener();
    const started = performance.now();
    const patched = await app.inject({
      method: 'PATCH',
      url: `/api/part/${part.id}`,
      headers: admin.headers,
      payload: { price: 11 },
    });
    const waitedMs = performance.now() - started;
    expect(patched.statusCode).toBe(200);
    // Its check's bound (1 s) and no more; the instance knew it was deaf before the write's answer left.
    expect(waitedMs).toBeLessThan(1800);
    expect(cache.listening).toBe(false);
    expect(cache.size).toBe(0);
    expect(log).toContain('catalogue cache: lost the database notifications');

    // Deaf: the writer's own change, and one made elsewhere, are read from the database.
    expect(await readPrice(part.id)).toBe(11);
    await database.db.execute(sql`update parts set price_cents = 1200 where id = ${part.id}`);
    expect(await readPrice(part.id)).toBe(12);
    expect(cache.size).toBe(0);
    const health = await healthReport();
    expect(health.catalogCache).toEqual({ listening: false });
    expect(health.status).toBe('degraded');
    // While deaf a write does not wait for a check that cannot succeed.
    const quick = performance.now();
    await app.inject({ method: 'PATCH', url: `/api/part/${part.id}`, headers: admin.headers, payload: { price: 13 } });
    expect(performance.now() - quick).toBeLessThan(500);
    expect(cache.listening).toBe(false);

    // Back on a new connection (the frozen backend is left to itself), with an empty cache that keeps again.
    await eventually(() => cache.listening, RETRY_MS + 10_000);
    expect((await listenerBackends()).filter((backend) => backend !== pid)).toHaveLength(1);
    expect((await healthReport()).catalogCache).toEqual({ listening: true });
    expect(await readPrice(part.id)).toBe(13);
    expect(cache.size).toBe(1);
    await database.db.execute(sql`update parts set price_cents = 1400 where id = ${part.id}`);
    await app.catalogCache?.caughtUp();
    expect(await readPrice(part.id)).toBe(14);
  });

  it('an instance that only reads notices too, within a probe and its timeout', async () => {
    const cache = cacheOf(app);
    cache.clear();
    const part = await insertPart(database.db, { name: 'Frozen Two', priceCents: 2000 });
    await app.catalogCache?.caughtUp();
    expect(await readPrice(part.id)).toBe(20);
    expect(cache.size).toBe(1);

    await freezeListener();
    // The probe: a marker round after 2 s without one, answered within 1 s or the connection counts as lost.
    await eventually(() => !cache.listening, 2000 + 1000 + 1500);
    await database.db.execute(sql`update parts set price_cents = 2100 where id = ${part.id}`);
    expect(await readPrice(part.id)).toBe(21);
    expect((await healthReport()).catalogCache).toEqual({ listening: false });
  });
});
