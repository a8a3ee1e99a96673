import type { AddressInfo } from 'node:net';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { databaseChecksum } from '../../test/support/table-checksum.ts';
import { createUser, describeEachDatabase } from '../../test/support/test-app.ts';
import { partSchema } from '../shared/schemas/parts.ts';
import { seedDemoData } from './db/seed.ts';
import { seedParts } from './db/seed-data.ts';
import { closeHealthListener, listenForHealth } from './plugins/health-listener.ts';

/** The test suite's cheap scrypt: password-hasher.test.ts proves the production cost. */
const fastHash = { NODE_ENV: 'test', TEST_ONLY_FAST_PASSWORD_HASH: 'true' } as const;

const silent = { info: () => {}, warn: () => {} };

describeEachDatabase('the app', (ctx) => {
  it('reports the database as reachable', async () => {
    // The public learns only up or down; the report is the health port's (and an admin's). No admin is made here:
    // the seeding tests below need a database without users.
    expect((await ctx().app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ status: 'ok' });
    const healthPort = await listenForHealth(ctx().app, { port: 0, host: '127.0.0.1', headersTimeoutMs: 5000 });
    const { port } = healthPort.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/api/health`).then(async (answer) => ({
      statusCode: answer.status,
      json: await answer.json(),
    }));
    await closeHealthListener(healthPort);
    expect(res.statusCode).toBe(200);
    // Readiness: the spec-free shape of before, plus each dependency (docs/operations.md §5).
    expect(res.json).toEqual({
      status: 'ok',
      database: { reachable: true, writable: true, driver: ctx().driver },
      disk: { freeMb: expect.any(Number), floorMb: 64, ok: true, holdsDatabase: false },
      rateLimits: { counting: 'memory', redisConfigured: false, redisReachable: false },
      catalogCache: { listening: true },
      elapsedMs: expect.any(Number),
    });
    const live = await ctx().app.inject({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
  });

  it('serves the seeded parts with the spec wire field names', async () => {
    await seedDemoData(
      ctx().database.db,
      { ADMIN_EMAIL: 'boss@shop.com', ADMIN_PASSWORD: 'secret-pass', ...fastHash },
      silent,
    );
    const res = await ctx().app.inject({ method: 'GET', url: '/api/part' });
    expect(res.statusCode).toBe(200);
    const parts = z.array(partSchema).parse(res.json());
    expect(parts).toHaveLength(seedParts.length);
    // The spec's fields, plus the additive ones (brand, numbers, category, universal); `fit` only with ?vehicle=.
    const specFields = [
      '_id',
      'availablequantity',
      'createdAt',
      'desription',
      'email',
      'img',
      'minimunorder',
      'name',
      'price',
    ];
    const fitmentFields = ['brand', 'category', 'mpn', 'oemNumbers', 'universal'];
    expect(Object.keys(parts[0] ?? {}).sort()).toEqual([...specFields, ...fitmentFields].sort());
    const brake = parts.find((p) => p.name === 'Drilled Brake Disc');
    // L2: the adding admin's email is not on public part records; an admin still sees it.
    expect(brake).toMatchObject({ price: 260, minimunorder: 2, email: null });
    const admin = await createUser(ctx(), { admin: true });
    const asAdmin = await ctx().app.inject({ method: 'GET', url: `/api/part/${brake?._id}`, headers: admin.headers });
    expect(asAdmin.json()).toMatchObject({ name: 'Drilled Brake Disc', email: 'boss@shop.com' });
    expect(res.headers['x-total-count']).toBe(String(seedParts.length));
  });

  it('never seeds a database that already has data', async () => {
    const again = await seedDemoData(
      ctx().database.db,
      { ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined, ...fastHash },
      silent,
    );
    expect(again.seeded).toBe(false);
    const res = await ctx().app.inject({ method: 'GET', url: '/api/part' });
    expect(res.json()).toHaveLength(seedParts.length);
  });

  it('answers an unknown part id with 404 and a malformed one with 400, in the error shape', async () => {
    const unknown = await ctx().app.inject({ method: 'GET', url: '/api/part/00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    for (const id of ['not-a-uuid', "1' OR '1'='1"]) {
      const res = await ctx().app.inject({ method: 'GET', url: `/api/part/${encodeURIComponent(id)}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'invalid_data', message: expect.any(String) } });
    }
  });

  it('answers an unknown API route with 404 JSON', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });

  it('rejects bad query parameters with 400 and details', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/part?limit=5000&sort=random' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('invalid_data');
    expect(body.error.details.length).toBeGreaterThan(0);
  });

  it('sends security headers on every response', async () => {
    for (const url of ['/api/health', '/api/part/nope', '/some/page']) {
      const res = await ctx().app.inject({ method: 'GET', url });
      // A page's policy allows its own scripts; an API answer's allows nothing (security-headers.ts).
      expect(res.headers['content-security-policy']).toContain(
        url.startsWith('/api/') ? "default-src 'none'" : "script-src 'self'",
      );
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      // Plain http here: HSTS would be wrong.
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });
});

describeEachDatabase('the OpenAPI document', (ctx) => {
  it('is a valid OpenAPI 3.1 document that lists the routes', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/part', '/api/part/{id}', '/api/health']));
  });

  it('renders an interactive reference at /api/docs', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('swagger');
  });
});

describe('malformed requests', () => {
  describeEachDatabase('body handling', (ctx) => {
    it('answers malformed JSON with 400 in the error shape', async () => {
      // An admin, so the guard lets the request through to the body (an anonymous caller is refused before it).
      const admin = await createUser(ctx(), { admin: true });
      const before = await databaseChecksum(ctx().database.db);
      const res = await ctx().app.inject({
        method: 'POST',
        url: '/api/part',
        headers: { ...admin.headers, 'content-type': 'application/json' },
        payload: '{"name": ',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: { code: 'invalid_data', message: expect.any(String) } });
      expect(await databaseChecksum(ctx().database.db)).toEqual(before);
    });
  });
});
