import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, TEST_SESSION_SECRET, testConfig } from '../../../../test/support/test-app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../../../test/support/test-database.ts';
import { buildApp } from '../../app.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { DiskFloor } from '../../db/disk-floor.ts';
import { healthProbe } from '../../db/schema.ts';
import { closeHealthListener, listenForHealth } from '../../plugins/health-listener.ts';

/** The real app over a database handle the test may change (a probe that hangs, a disk below its floor). */
async function appOver(database: DatabaseHandle, overrides: Record<string, string> = {}): Promise<FastifyInstance> {
  // A generous bound unless the test is about the bound (a loaded test machine may be slow, not broken).
  const config = testConfig({ HEALTH_CHECK_TIMEOUT_MS: '5000', ...overrides });
  const app = await buildApp({ config, database, sessionSecret: TEST_SESSION_SECRET, logger: false });
  await app.ready();
  return app;
}

describe.each(testDrivers)('health [%s]', (driver) => {
  let database: TestDatabase;
  const apps: FastifyInstance[] = [];
  const build = async (handle: DatabaseHandle, overrides: Record<string, string> = {}) => {
    const app = await appOver(handle, overrides);
    apps.push(app);
    return app;
  };

  /** The full report goes to a signed-in admin (and the health port); the public learns only up or down. */
  const asAdmin = async (app: FastifyInstance) =>
    (await createUser({ driver, app, database, config: testConfig() }, { admin: true })).headers;
  const detailed = async (app: FastifyInstance) =>
    app.inject({ method: 'GET', url: '/api/health', headers: await asAdmin(app) });

  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });

  it('tells the public only up or down; the driver and disk go to an admin and to the health port', async () => {
    const app = await build(database);
    const anonymous = await app.inject({ method: 'GET', url: '/api/health' });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toEqual({ status: 'ok' });
    const customer = await createUser({ driver, app, database, config: testConfig() });
    const signedIn = await app.inject({ method: 'GET', url: '/api/health', headers: customer.headers });
    expect(signedIn.json()).toEqual({ status: 'ok' });
    expect((await detailed(app)).json()).toMatchObject({ database: { driver }, disk: { freeMb: expect.any(Number) } });

    const server = await listenForHealth(app, { port: 0, host: '127.0.0.1', headersTimeoutMs: 5000 });
    try {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const onHealthPort = (await (await fetch(`http://127.0.0.1:${port}/api/health`)).json()) as object;
      expect(onHealthPort).toMatchObject({ status: 'ok', database: { driver }, disk: { freeMb: expect.any(Number) } });
    } finally {
      await closeHealthListener(server);
    }

    // Down: the code says why, but the report stays private.
    const down = await build({ ...database, probe: async () => ({ reachable: true, writable: false, problem: 'x' }) });
    const refused = await down.inject({ method: 'GET', url: '/api/health' });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({
      error: { code: 'database_not_writable', message: expect.any(String) },
    });
    expect(JSON.stringify(refused.json())).not.toMatch(/driver|freeMb|pglite|postgres/);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database.close();
  });

  it('liveness asks nothing: it answers even when the database hangs', async () => {
    const app = await build({ ...database, probe: () => new Promise(() => {}) });
    const res = await app.inject({ method: 'GET', url: '/api/health/live' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('readiness proves the database takes a write, and says so', async () => {
    const app = await build(database);
    const res = await detailed(app);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: { reachable: true, writable: true, driver } });
    const rows = await database.db.select().from(healthProbe);
    expect(rows).toHaveLength(1);
  });

  it('reports whether the catalogue cache hears of writes; not hearing them is degraded (issue 15)', async () => {
    const listening = await build(database);
    const ok = await detailed(listening);
    expect(ok.json()).toMatchObject({ status: 'ok', catalogCache: { listening: true } });

    const deaf = await build({
      ...database,
      listen: async (_channel, events) => {
        events.onListening(false);
        return { listening: false, caughtUp: async () => false, close: async () => {} };
      },
    });
    const degraded = await detailed(deaf);
    expect(degraded.statusCode).toBe(200);
    expect(degraded.json()).toMatchObject({ status: 'degraded', catalogCache: { listening: false } });

    const off = await build(database, { CATALOG_CACHE: 'off' });
    expect((await detailed(off)).json().catalogCache).toBeUndefined();
  });

  it('a database that hangs is reported within the bound: 503 database_unreachable with Retry-After', async () => {
    const app = await build({ ...database, probe: () => new Promise(() => {}) }, { HEALTH_CHECK_TIMEOUT_MS: '300' });
    const headers = await asAdmin(app);
    const started = Date.now();
    const res = await app.inject({ method: 'GET', url: '/api/health', headers });
    const took = Date.now() - started;
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    const body = res.json();
    expect(body.error.code).toBe('database_unreachable');
    expect(body.error.details[0]).toMatchObject({
      database: { reachable: false, writable: false, driver, reason: 'timeout' },
    });
    expect(took).toBeLessThan(1500);
  });

  it('a database that refuses writes is not ready', async () => {
    const app = await build({
      ...database,
      probe: async () => ({ reachable: true, writable: false, problem: 'read-only' }),
    });
    const res = await detailed(app);
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toMatchObject({ code: 'database_not_writable' });
    expect(res.json().error.details[0].database).toMatchObject({ reachable: true, writable: false });
  });

  it('the embedded database on a disk below its floor is not ready, and says why', async () => {
    // A floor no disk can meet: the disk is "below" it.
    const disk = new DiskFloor('.', 100_000_000);
    const app = await build({ ...database, disk });
    const res = await detailed(app);
    expect(res.statusCode).toBe(503);
    const body = res.json();
    expect(body.error.code).toBe('insufficient_storage');
    expect(body.error.details[0].disk).toMatchObject({ ok: false, holdsDatabase: true, floorMb: 100_000_000 });
  });

  it('a closed database is unreachable, and answers health in the one error shape', async () => {
    const own = await createTestDatabase(driver);
    const app = await build(own);
    await own.close();
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('database_unreachable');
    // And every other request that needs it is a 503 with Retry-After, never a 500.
    const parts = await app.inject({ method: 'GET', url: '/api/part' });
    expect(parts.statusCode).toBe(503);
    expect(parts.headers['retry-after']).toBe('5');
    expect(parts.json().error.code).toBe('service_unavailable');
  });

  it('is never shed under load and never rate limited', async () => {
    const app = await build(database, { MAX_CONCURRENT_REQUESTS: '1' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => app.inject({ method: 'GET', url: '/api/health' })),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(Array(20).fill(200));
  });
});
