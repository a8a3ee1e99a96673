import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validPart, validReview } from '../../../test/support/request-builders.ts';
import {
  createTestApp,
  createUser,
  describeEachDatabase,
  heardDirectWrites,
  TEST_SESSION_SECRET,
  type TestContext,
  type TestUser,
  testConfig,
} from '../../../test/support/test-app.ts';
import { buildApp } from '../app.ts';
import { type DatabaseHandle, openPostgres } from '../db/client.ts';
import { LISTENER_APPLICATION_NAME } from '../db/notifications.ts';
import { insertPart } from '../modules/orders/order-test-helpers.ts';
import { authPlugin } from './auth.ts';
import {
  CatalogReadCache,
  catalogReadCachePlugin,
  PUBLIC_CATALOG_READS,
  preferredEncoding,
} from './catalog-read-cache.ts';
import { gracefulStopPlugin } from './graceful-stop.ts';

function cacheOf(app: FastifyInstance): CatalogReadCache {
  if (!app.catalogCache) throw new Error('the catalogue cache is not on');
  return app.catalogCache;
}

/** Waits until `check` holds (notifications from PostgreSQL arrive on their own connection). */
async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeEachDatabase('catalogue read cache', (ctx) => {
  let admin: TestUser;
  let customer: TestUser;

  beforeAll(async () => {
    admin = await createUser(ctx(), { admin: true });
    customer = await createUser(ctx(), { verified: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => ctx().app.inject({ method: 'GET', url, headers });

  async function addPart(): Promise<string> {
    const created = await ctx().app.inject({
      method: 'POST',
      url: '/api/part',
      headers: admin.headers,
      payload: validPart(),
    });
    expect(created.statusCode).toBe(201);
    return created.json()._id;
  }

  it('keeps a public answer as bytes with a strong ETag and no-cache, and answers the same bytes again', async () => {
    await addPart();
    const cache = cacheOf(ctx().app);
    expect(cache.listening).toBe(true);
    cache.clear();
    const first = await get('/api/part?limit=5&sort=name');
    expect(first.statusCode).toBe(200);
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(cache.size).toBe(1);
    // The same query in another order is the same answer.
    const again = await get('/api/part?sort=name&limit=5');
    expect(cache.size).toBe(1);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(again.headers).toMatchObject({
      etag: first.headers.etag,
      'cache-control': 'no-cache',
      'content-type': first.headers['content-type'],
      'x-total-count': first.headers['x-total-count'],
    });
    // Still a full answer: the app-wide headers are there too.
    expect(again.headers['x-request-id']).toBeDefined();
    expect(again.headers['content-security-policy']).toBeDefined();
  });

  it('If-None-Match with the current ETag is a 304 without a body; after a change it is a 200 again', async () => {
    const id = await addPart();
    const first = await get(`/api/part/${id}`);
    const etag = String(first.headers.etag);
    // From the database (first answer) and from memory (second): both 304.
    cacheOf(ctx().app).clear();
    const fromDatabase = await get(`/api/part/${id}`, { 'if-none-match': etag });
    expect(fromDatabase.statusCode).toBe(304);
    expect(fromDatabase.rawPayload.length).toBe(0);
    const fromMemory = await get(`/api/part/${id}`, { 'if-none-match': `W/"other", ${etag}` });
    expect(fromMemory.statusCode).toBe(304);
    expect(fromMemory.rawPayload.length).toBe(0);
    expect(fromMemory.headers.etag).toBe(etag);

    const patched = await ctx().app.inject({
      method: 'PATCH',
      url: `/api/part/${id}`,
      headers: admin.headers,
      payload: { price: 99.5 },
    });
    expect(patched.statusCode).toBe(200);
    const changed = await get(`/api/part/${id}`, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().price).toBe(99.5);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('every kind of write through the API: the next read is fresh', async () => {
    const id = await addPart();
    const readPart = async () => (await get(`/api/part/${id}`)).json();
    const readList = async () => (await get('/api/part')).json() as { _id: string; name: string }[];

    // Part edit.
    await readPart();
    await ctx().app.inject({
      method: 'PATCH',
      url: `/api/part/${id}`,
      headers: admin.headers,
      payload: { name: 'Cached Renamed' },
    });
    expect((await readPart()).name).toBe('Cached Renamed');
    expect((await readList()).find((p) => p._id === id)?.name).toBe('Cached Renamed');

    // Stock taken by an order (the orders module writes parts).
    const before = (await readPart()).availablequantity as number;
    const order = await ctx().app.inject({
      method: 'POST',
      url: '/api/myorder',
      headers: customer.headers,
      payload: { partId: id, quantity: 2 },
    });
    expect(order.statusCode).toBe(201);
    expect((await readPart()).availablequantity).toBe(before - 2);

    // A review.
    const reviewsBefore = (await get('/api/review')).json().length as number;
    const review = await ctx().app.inject({
      method: 'POST',
      url: '/api/review',
      headers: customer.headers,
      payload: validReview(),
    });
    expect(review.statusCode).toBe(201);
    expect((await get('/api/review')).json()).toHaveLength(reviewsBefore + 1);

    // A make for the vehicle selector.
    const makes = (await get('/api/vehicle/makes')).json().length as number;
    const make = await ctx().app.inject({
      method: 'POST',
      url: '/api/vehicle/make',
      headers: admin.headers,
      payload: { name: `Make ${Date.now()}` },
    });
    expect(make.statusCode).toBe(201);
    expect((await get('/api/vehicle/makes')).json()).toHaveLength(makes + 1);

    // Deleting the part.
    await readList();
    const removed = await ctx().app.inject({ method: 'DELETE', url: `/api/part/${id}`, headers: admin.headers });
    expect(removed.statusCode).toBe(204);
    expect((await get(`/api/part/${id}`)).statusCode).toBe(404);
    expect((await readList()).some((p) => p._id === id)).toBe(false);
  });

  it.each([
    'brands',
    'categories',
    'vehicle_makes',
    'vehicle_models',
    'vehicles',
    'part_fitments',
    'reviews',
    'part_photos',
  ])('a statement on %s (from any connection) forgets every kept answer', async (table) => {
    const cache = cacheOf(ctx().app);
    await get('/api/part?limit=3');
    await get('/api/brand');
    expect(cache.size).toBeGreaterThan(0);
    // A statement that changes no row still says the table was written: the trigger is per statement.
    await ctx().database.db.execute(sql.raw(`delete from ${table} where false`));
    await eventually(() => cache.size === 0);
  });

  it("a statement that changes parts (from any connection) forgets their answers and every list, not other parts'; one that changes none, nothing", async () => {
    const cache = cacheOf(ctx().app);
    const { id } = await insertPart(ctx().database.db);
    const other = await insertPart(ctx().database.db);
    // The inserts' own notifications first (on PostgreSQL they arrive a moment later and would forget the answers).
    await heardDirectWrites(ctx().app);
    cache.clear();
    await get('/api/part?limit=3');
    await get('/api/brand');
    await get(`/api/part/${id}`);
    await get(`/api/part/${other.id}`);
    expect(cache.size).toBe(4);
    // `parts` names the rows a statement changed (0016): no row, no notification.
    const generation = cache.generation;
    await ctx().database.db.execute(sql`delete from parts where false`);
    await heardDirectWrites(ctx().app);
    expect(cache.generation).toBe(generation);
    await ctx().database.db.execute(sql`update parts set description = description where id = ${id}`);
    await eventually(() => cache.size === 1);
    expect(cache.keys()).toEqual([expect.stringContaining(`id=${other.id}`)]);
  });

  it("an order taking one part's stock forgets that part's answer and the lists, and keeps the other parts'", async () => {
    const cache = cacheOf(ctx().app);
    const ordered = await addPart();
    const untouched = await addPart();
    cache.clear();
    const untouchedBefore = await get(`/api/part/${untouched}`);
    const orderedBefore = (await get(`/api/part/${ordered}`)).json();
    await get('/api/part?limit=5');
    expect(cache.size).toBe(3);

    const order = await ctx().app.inject({
      method: 'POST',
      url: '/api/myorder',
      headers: customer.headers,
      payload: { partId: ordered, quantity: orderedBefore.minimunorder },
    });
    expect(order.statusCode).toBe(201);
    // The order's answer left once this instance had heard the order's notification.
    expect(cache.keys()).toEqual([expect.stringContaining(`id=${untouched}`)]);
    // The kept answer is still the one given (its ETag answers 304), and the ordered part's is fresh.
    const again = await get(`/api/part/${untouched}`, { 'if-none-match': String(untouchedBefore.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect((await get(`/api/part/${ordered}`)).json().availablequantity).toBe(
      orderedBefore.availablequantity - orderedBefore.minimunorder,
    );
  });

  it('one statement over many rows sends one notification (FOR EACH STATEMENT)', async () => {
    for (let i = 0; i < 5; i++) await insertPart(ctx().database.db);
    const cache = cacheOf(ctx().app);
    // Settle any notification still on its way, then count what one statement does.
    await cache.caughtUp();
    const generation = cache.generation;
    const updated = await ctx().database.db.execute(sql`update parts set description = description`);
    expect(
      Number((updated as { rowCount?: number }).rowCount ?? (updated as { affectedRows?: number }).affectedRows),
    ).toBeGreaterThan(4);
    await cache.caughtUp();
    expect(cache.generation).toBe(generation + 1);
  });

  it("an administrator's answer (with the adding admin's email) is never kept nor served to others", async () => {
    const id = await addPart();
    cacheOf(ctx().app).clear();
    const asAdmin = await get(`/api/part/${id}`, admin.headers);
    expect(asAdmin.json().email).toBe(admin.email);
    expect(asAdmin.headers['cache-control']).toBe('no-store');
    expect(asAdmin.headers.etag).toBeUndefined();
    expect(cacheOf(ctx().app).size).toBe(0);

    const anonymous = await get(`/api/part/${id}`);
    expect(anonymous.json().email).toBeNull();
    // Kept now; the administrator still gets their own answer, and a customer the public one.
    const adminAgain = await get(`/api/part/${id}`, admin.headers);
    expect(adminAgain.json().email).toBe(admin.email);
    const asCustomer = await get(`/api/part/${id}`, customer.headers);
    expect(asCustomer.json().email).toBeNull();
    expect(asCustomer.rawPayload.equals(anonymous.rawPayload)).toBe(true);
  });

  it('every listed route exists and is public (a renamed route must not silently fall out of the cache)', async () => {
    for (const url of PUBLIC_CATALOG_READS) {
      expect(ctx().app.hasRoute({ method: 'GET', url }), url).toBe(true);
      const concrete = url.replace(':id', '00000000-0000-4000-8000-000000000000');
      // Public: never 401/403 (a missing required query, as suggest's `q`, may be 400).
      expect([200, 400, 404], url).toContain((await get(concrete)).statusCode);
    }
  });

  it('errors are not kept', async () => {
    const cache = cacheOf(ctx().app);
    cache.clear();
    expect((await get('/api/part/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await get('/api/part?limit=oops')).statusCode).toBe(400);
    expect(cache.size).toBe(0);
  });

  it('a read that overlaps a write does not keep its answer (the generation moved)', async () => {
    const cache = cacheOf(ctx().app);
    const generation = cache.generation;
    cache.clear();
    expect(cache.set('/api/part?', { body: Buffer.from('[]'), etag: '"x"', headers: [] }, generation)).toBe(false);
    expect(cache.size).toBe(0);
  });
});

describeEachDatabase(
  'catalogue read cache off',
  (ctx) => {
    it('CATALOG_CACHE=off: no cache, no ETag, and every read from the database', async () => {
      expect(ctx().app.catalogCache).toBeUndefined();
      const part = await insertPart(ctx().database.db, { name: 'Uncached One' });
      const first = await ctx().app.inject({ method: 'GET', url: `/api/part/${part.id}` });
      expect(first.headers.etag).toBeUndefined();
      expect(first.headers['cache-control']).toBe('no-store');
      await ctx().database.db.execute(sql`update parts set name = 'Uncached Two' where id = ${part.id}`);
      const second = await ctx().app.inject({ method: 'GET', url: `/api/part/${part.id}` });
      expect(second.json().name).toBe('Uncached Two');
    });
  },
  { CATALOG_CACHE: 'off' },
);

describe.runIf(process.env.TEST_DATABASE_URL)('catalogue read cache across instances [postgres]', () => {
  let one: TestContext;
  let otherHandle: DatabaseHandle;
  let other: FastifyInstance;
  let otherLog = '';
  let admin: TestUser;

  beforeAll(async () => {
    one = await createTestApp('postgres');
    if (!one.database.url) throw new Error('no url');
    otherHandle = openPostgres(one.database.url, 3);
    const config = testConfig();
    const stream = new Writable({
      write(chunk, _encoding, done) {
        otherLog += chunk.toString();
        done();
      },
    });
    other = await buildApp({
      config,
      database: otherHandle,
      sessionSecret: TEST_SESSION_SECRET,
      logger: { level: 'warn', stream },
    });
    await other.ready();
    admin = await createUser(one, { admin: true });
  });

  afterAll(async () => {
    await other?.close();
    await otherHandle?.close();
    await one?.app.close();
    await one?.database.close();
  });

  it('a write on one instance: the next read on the other is fresh', async () => {
    const created = await one.app.inject({
      method: 'POST',
      url: '/api/part',
      headers: admin.headers,
      payload: { ...validPart(), name: 'Across One' },
    });
    const id = created.json()._id;
    // The other instance keeps its answers.
    expect((await other.inject({ method: 'GET', url: `/api/part/${id}` })).json().name).toBe('Across One');
    expect(
      (await other.inject({ method: 'GET', url: '/api/part' })).json().some((p: { _id: string }) => p._id === id),
    ).toBe(true);
    expect(cacheOf(other).size).toBe(2);

    const patched = await one.app.inject({
      method: 'PATCH',
      url: `/api/part/${id}`,
      headers: admin.headers,
      payload: { name: 'Across Two' },
    });
    expect(patched.statusCode).toBe(200);
    // The notification reaches the other instance on its own connection, a moment after the commit.
    await eventually(() => cacheOf(other).size === 0);
    expect((await other.inject({ method: 'GET', url: `/api/part/${id}` })).json().name).toBe('Across Two');
    const list = (await other.inject({ method: 'GET', url: '/api/part' })).json() as { _id: string; name: string }[];
    expect(list.find((p) => p._id === id)?.name).toBe('Across Two');
  });

  it('the writing instance has seen its own notification before it answers the write', async () => {
    const created = await other.inject({
      method: 'POST',
      url: '/api/part',
      headers: admin.headers,
      payload: { ...validPart(), name: 'Own Write One' },
    });
    const id = created.json()._id;
    await other.inject({ method: 'GET', url: `/api/part/${id}` });
    await other.inject({
      method: 'PATCH',
      url: `/api/part/${id}`,
      headers: admin.headers,
      payload: { name: 'Own Write Two' },
    });
    // No waiting: the very next read on the same instance.
    expect((await other.inject({ method: 'GET', url: `/api/part/${id}` })).json().name).toBe('Own Write Two');
  });

  it('concurrent writes share catch-up markers, one query at a time on the listening connection', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const parts = await Promise.all(
        Array.from({ length: 20 }, (_, i) => insertPart(one.database.db, { name: `Conc ${i}` })),
      );
      const answers = await Promise.all(
        parts.map((part, i) =>
          other.inject({
            method: 'PATCH',
            url: `/api/part/${part.id}`,
            headers: admin.headers,
            payload: { name: `Conc ${i} renamed` },
          }),
        ),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(parts.map(() => 200));
      // Each writer's next read on its own instance is fresh.
      const read = await other.inject({ method: 'GET', url: `/api/part/${parts[7]?.id}` });
      expect(read.json().name).toBe('Conc 7 renamed');
      // pg warns (once per process) when a query is sent on a client still running one: the listener never does.
      expect(warnings.filter((m) => m.includes('already executing a query'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('with the listening connection lost, reads are answered from the database until it is back', async () => {
    const cache = cacheOf(other);
    const part = await insertPart(one.database.db, { name: 'Lost One' });
    await other.inject({ method: 'GET', url: `/api/part/${part.id}` });
    expect(cache.listening).toBe(true);
    await one.database.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and application_name = ${LISTENER_APPLICATION_NAME}`,
    );
    await eventually(() => !cache.listening);
    expect(cache.size).toBe(0);
    // An operator learns of it.
    expect(otherLog).toContain('catalogue cache: lost the database notifications');
    await other.inject({ method: 'GET', url: `/api/part/${part.id}` });
    expect(cache.size).toBe(0);
    await eventually(() => cache.listening, 10_000);
    await other.inject({ method: 'GET', url: `/api/part/${part.id}` });
    expect(cache.size).toBe(1);
  });
});

describe('catalogue read cache, with notifications that arrive late', () => {
  /** A database whose notifications wait until someone asks to catch up (a slow listening connection). */
  function lateDatabase() {
    const pending: string[] = [];
    let deliver: ((payload: string) => void) | undefined;
    const handle = {
      listen: async (_channel: string, events: { onNotification(p: string): void; onListening(l: boolean): void }) => {
        deliver = (payload) => events.onNotification(payload);
        events.onListening(true);
        return {
          listening: true,
          caughtUp: async () => {
            for (const payload of pending.splice(0)) deliver?.(payload);
            return true;
          },
          close: async () => {},
        };
      },
    } as unknown as DatabaseHandle;
    return { handle, notifyLater: (table: string) => pending.push(table), notifyNow: (t: string) => deliver?.(t) };
  }

  async function smallApp(database: ReturnType<typeof lateDatabase>, duringRead?: () => void) {
    const app = Fastify();
    await app.register(authPlugin, { sessions: { findUser: async () => null } });
    await app.register(catalogReadCachePlugin, { database: database.handle, maxBytes: 1024 * 1024 });
    let brands = ['Alpha'];
    app.get('/api/brand', async () => {
      const seen = brands;
      duringRead?.();
      return seen;
    });
    app.post('/api/brand', async () => {
      brands = [...brands, 'Beta'];
      database.notifyLater('brands');
      return { ok: true };
    });
    await app.ready();
    return app;
  }

  it("a write's answer waits until its own notification has been seen, so the next read is fresh", async () => {
    const database = lateDatabase();
    const app = await smallApp(database);
    expect((await app.inject({ method: 'GET', url: '/api/brand' })).json()).toEqual(['Alpha']);
    await app.inject({ method: 'POST', url: '/api/brand' });
    expect((await app.inject({ method: 'GET', url: '/api/brand' })).json()).toEqual(['Alpha', 'Beta']);
    await app.close();
  });

  it('a read during which a notification arrives does not keep its (possibly old) answer', async () => {
    const database = lateDatabase();
    let reads = 0;
    const app = await smallApp(database, () => {
      reads += 1;
      if (reads === 1) database.notifyNow('brands');
    });
    await app.inject({ method: 'GET', url: '/api/brand' });
    expect(app.catalogCache?.size).toBe(0);
    await app.inject({ method: 'GET', url: '/api/brand' });
    expect(app.catalogCache?.size).toBe(1);
    await app.close();
  });

  it('a kept read is a request in progress to a graceful stop until it is answered', async () => {
    const database = lateDatabase();
    const app = Fastify();
    await app.register(gracefulStopPlugin);
    let hold: Promise<void> | undefined;
    // An app-wide hook after the graceful stop's, as load shedding is: a kept read waits there like any request.
    app.addHook('onRequest', (_request, reply, done) => {
      if (!hold) return done();
      void hold.then(() => {
        if (!reply.sent) done();
      });
    });
    await app.register(authPlugin, { sessions: { findUser: async () => null } });
    await app.register(catalogReadCachePlugin, { database: database.handle, maxBytes: 1024 * 1024 });
    app.get('/api/brand', async () => ['Alpha']);
    await app.ready();
    expect((await app.inject({ method: 'GET', url: '/api/brand' })).statusCode).toBe(200);
    expect(cacheOf(app).size).toBe(1);

    let release = () => {};
    hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const pending = app.inject({ method: 'GET', url: '/api/brand' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(app.answerUnfinished()).toBe(1);
    const answered = await pending;
    expect(answered.statusCode).toBe(503);
    expect(answered.headers['retry-after']).toBe('5');
    release();
    hold = undefined;
    expect(app.answerUnfinished()).toBe(0);
    await app.close();
  });

  it("a part's read keeps its answer unless that part (or everything) changed while it ran", async () => {
    const database = lateDatabase();
    let duringRead: (() => void) | undefined;
    const app = Fastify();
    await app.register(authPlugin, { sessions: { findUser: async () => null } });
    await app.register(catalogReadCachePlugin, { database: database.handle, maxBytes: 1024 * 1024 });
    app.get('/api/part/:id', async (request) => {
      duringRead?.();
      return { id: (request.params as { id: string }).id };
    });
    await app.ready();
    const cache = cacheOf(app);
    const read = (id: string, during: () => void) => {
      duringRead = during;
      return app.inject({ method: 'GET', url: `/api/part/${id}` });
    };

    await read('a', () => database.notifyNow('parts:b,c'));
    expect(cache.keys()).toEqual([expect.stringContaining('id=a')]);
    await read('b', () => database.notifyNow('parts:a,b'));
    // b changed during its own read: not kept; a's answer was forgotten.
    expect(cache.size).toBe(0);
    await read('c', () => database.notifyNow('brands'));
    expect(cache.size).toBe(0);
    await read('c', () => {});
    expect(cache.size).toBe(1);
    await app.close();
  });
});

describe('catalogue read cache, many parts changed while a part was read', () => {
  it('a read older than the oldest part change still remembered keeps nothing', async () => {
    const handle = {
      listen: async (_channel: string, events: { onListening(l: boolean): void }) => {
        events.onListening(true);
        return { listening: true, caughtUp: async () => true, close: async () => {} };
      },
    } as unknown as DatabaseHandle;
    const cache = new CatalogReadCache(1024 * 1024);
    await cache.listen(handle);
    const answer = { body: Buffer.from('{}'), etag: '"x"', headers: [], part: 'quiet' };
    const started = cache.generation;
    // More changed parts than are remembered one by one: whether 'quiet' was among the forgotten is unknown.
    cache.forget({ parts: Array.from({ length: 10_001 }, (_, i) => `busy-${i}`) });
    cache.forget({ parts: ['another'] });
    expect(cache.set('/api/part/:id|id=quiet?', answer, started)).toBe(false);
    expect(cache.set('/api/part/:id|id=quiet?', answer, cache.generation)).toBe(true);
    await cache.close();
  });
});

describeEachDatabase(
  'catalogue read cache with CORS origins',
  (ctx) => {
    it("a kept answer carries the CORS plugin's headers, as the first one did", async () => {
      const ask = () =>
        ctx().app.inject({ method: 'GET', url: '/api/brand', headers: { origin: 'https://other.example' } });
      const first = await ask();
      const kept = await ask();
      expect(cacheOf(ctx().app).size).toBeGreaterThan(0);
      expect(first.headers['access-control-allow-origin']).toBe('https://other.example');
      expect(kept.headers['access-control-allow-origin']).toBe('https://other.example');
      expect(kept.headers.etag).toBe(first.headers.etag);
    });
  },
  { CORS_ORIGINS: 'https://other.example' },
);

describe('the encoding a server-rendered page is compressed in', () => {
  it('picks brotli, then gzip, never a refused one', () => {
    expect(preferredEncoding(undefined)).toBeUndefined();
    expect(preferredEncoding('identity')).toBeUndefined();
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip, br;q=0')).toBe('gzip');
    expect(preferredEncoding('*')).toBe('br');
    expect(preferredEncoding('br;q=0, gzip;q=0, *')).toBeUndefined();
  });
});

describeEachDatabase('catalogue read cache, compressed answers', (ctx) => {
  it('a kept answer is compressed by @fastify/compress as asked: the same bytes once decoded, the same ETag', async () => {
    for (let i = 0; i < 8; i++) await insertPart(ctx().database.db);
    await heardDirectWrites(ctx().app);
    const plain = await ctx().app.inject({ method: 'GET', url: '/api/part?limit=8' });
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const cache = cacheOf(ctx().app);
    expect(cache.size).toBeGreaterThan(0);
    for (const [encoding, decode] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      const res = await ctx().app.inject({
        method: 'GET',
        url: '/api/part?limit=8',
        headers: { 'accept-encoding': encoding },
      });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toContain('accept-encoding');
      expect(res.headers.etag).toBe(plain.headers.etag);
      expect(decode(res.rawPayload).equals(plain.rawPayload)).toBe(true);
      // A matching If-None-Match is a 304 without a body, compressed or not.
      const unchanged = await ctx().app.inject({
        method: 'GET',
        url: '/api/part?limit=8',
        headers: { 'accept-encoding': encoding, 'if-none-match': String(plain.headers.etag) },
      });
      expect(unchanged.statusCode).toBe(304);
      expect(unchanged.rawPayload.length).toBe(0);
    }
    // A small answer is not compressed (the threshold app.ts gives @fastify/compress).
    const [one] = plain.json() as { _id: string }[];
    await ctx().app.inject({ method: 'GET', url: `/api/part/${one?._id}` });
    const small = await ctx().app.inject({
      method: 'GET',
      url: `/api/part/${one?._id}`,
      headers: { 'accept-encoding': 'br' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
