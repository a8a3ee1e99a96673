import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/support/test-app.ts';
import { loadConfig } from '../config.ts';
import { registerErrorHandling } from '../errors.ts';
import { requestDeadlinePlugin } from './request-deadline.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const READ_MS = 150;
const WRITE_MS = 400;
/** The app's read deadline in its test: long enough for a loaded machine's ordinary read. */
const APP_READ_MS = 1000;

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** An app with the deadline and routes that wait as long as asked (a hung dependency), or fail late. */
async function build(deadlines = { REQUEST_DEADLINE_MS: READ_MS, REQUEST_DEADLINE_WRITE_MS: WRITE_MS }) {
  const instance = Fastify({ logger: false });
  registerErrorHandling(instance);
  await instance.register(requestDeadlinePlugin, deadlines);
  // An onSend hook that holds every answer a while (as own-writes.ts holds a write's): a deadline passing meanwhile
  // must not send a second answer.
  instance.addHook('onSend', (request, _reply, payload, done) => {
    const hold = Number((request.query as { hold?: string }).hold ?? 0);
    setTimeout(() => done(null, payload), hold);
  });
  instance.get('/wait', async (request) => {
    await sleep(Number((request.query as { ms: string }).ms));
    return { ok: true };
  });
  instance.get('/fail-late', async () => {
    await sleep(READ_MS * 2);
    throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
  });
  instance.get('/stream', async (_request, reply) => {
    // Starts answering at once, then takes longer than the deadline to finish.
    const body = Readable.from(
      (async function* () {
        yield 'first,';
        await sleep(READ_MS * 2);
        yield 'last';
      })(),
    );
    return reply.type('text/plain').send(body);
  });
  instance.post('/write', async (request) => {
    await sleep(Number((request.query as { ms: string }).ms));
    return { ok: true };
  });
  app = instance;
  return instance;
}

describe('request deadline', () => {
  it('answers a read still waiting at its deadline 503 with Retry-After, in the one error shape', async () => {
    const server = await build();
    const started = performance.now();
    const res = await server.inject({ method: 'GET', url: '/wait?ms=2000' });
    const ms = performance.now() - started;
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ error: { code: 'service_unavailable', message: expect.any(String) } });
    expect(ms).toBeGreaterThanOrEqual(READ_MS - 5);
    expect(ms).toBeLessThan(READ_MS + 500);
  });

  it('leaves a quick answer alone, and one that started leaving before the deadline', async () => {
    const server = await build();
    const quick = await server.inject({ method: 'GET', url: '/wait?ms=10' });
    expect(quick.statusCode).toBe(200);
    // The answer is held by a later onSend hook past the deadline: still the one answer, never a second.
    const held = await server.inject({ method: 'GET', url: `/wait?ms=10&hold=${READ_MS * 2}` });
    expect(held.statusCode).toBe(200);
    expect(held.json()).toEqual({ ok: true });
    const streamed = await server.inject({ method: 'GET', url: '/stream' });
    expect(streamed.statusCode).toBe(200);
    expect(streamed.body).toBe('first,last');
  });

  it('gives writes their own, longer deadline', async () => {
    const server = await build();
    const withinWriteDeadline = await server.inject({ method: 'POST', url: `/write?ms=${READ_MS * 2}`, payload: {} });
    expect(withinWriteDeadline.statusCode).toBe(200);
    const started = performance.now();
    const past = await server.inject({ method: 'POST', url: '/write?ms=5000', payload: {} });
    expect(past.statusCode).toBe(503);
    expect(past.headers['retry-after']).toBe('5');
    expect(performance.now() - started).toBeLessThan(WRITE_MS + 500);
  });

  it('survives the work failing after the deadline answered, and serves on', async () => {
    const server = await build();
    const res = await server.inject({ method: 'GET', url: '/fail-late' });
    expect(res.statusCode).toBe(503);
    await sleep(READ_MS * 2);
    expect((await server.inject({ method: 'GET', url: '/wait?ms=1' })).statusCode).toBe(200);
  });

  it('does not count the time a client takes to send its body', async () => {
    const server = await build();
    await server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.server.address() as AddressInfo;
    const answer = await new Promise<{ status: number }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/write?ms=10',
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        },
      );
      req.on('error', reject);
      // A chunked body sent slowly: its last byte arrives after the write deadline.
      req.write('{"a":');
      setTimeout(() => req.end('1}'), WRITE_MS + 200);
    });
    expect(answer.status).toBe(200);
  });

  it('defaults to 5 s for reads and 20 s for writes', () => {
    const config = loadConfig({});
    expect(config.REQUEST_DEADLINE_MS).toBe(5000);
    expect(config.REQUEST_DEADLINE_WRITE_MS).toBe(20_000);
  });

  it('is off at 0', async () => {
    const server = await build({ REQUEST_DEADLINE_MS: 0, REQUEST_DEADLINE_WRITE_MS: 0 });
    const res = await server.inject({ method: 'GET', url: `/wait?ms=${READ_MS * 2}` });
    expect(res.statusCode).toBe(200);
  });
});

describeEachDatabase(
  'request deadline in the app',
  (ctx) => {
    it('answers a read held up by the database 503 at its deadline, and serves again once it is free', async () => {
      const { app, database } = ctx();
      // Every read of the catalogue waits while this transaction holds its locks (PGlite: any query waits); a search
      // with no match reads only the search table.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const locking = database.db.transaction(async (tx) => {
        await tx.execute(sql`lock table parts, part_search in access exclusive mode`);
        await held;
      });
      try {
        await sleep(50);
        const started = performance.now();
        const res = await app.inject({ url: '/api/part?q=deadline' });
        const ms = performance.now() - started;
        expect(res.statusCode).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json().error.code).toBe('service_unavailable');
        expect(ms).toBeGreaterThanOrEqual(APP_READ_MS - 5);
        expect(ms).toBeLessThan(APP_READ_MS + 1500);
        expect((await app.inject({ url: '/api/health/live' })).statusCode).toBe(200);
      } finally {
        release();
        await locking;
      }
      expect((await app.inject({ url: '/api/part?q=deadline' })).statusCode).toBe(200);
    });
  },
  { REQUEST_DEADLINE_MS: String(APP_READ_MS) },
);
