import http from 'node:http';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SESSION_SECRET, testConfig } from '../../../test/support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.ts';
import { buildApp } from '../app.ts';

/** A connection that sends nothing, and how and when it ended. */
function silentConnection(
  port: number,
): Promise<{ socket: net.Socket; closed: Promise<{ at: number; data: string }> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
    });
    const closed = new Promise<{ at: number; data: string }>((done) => {
      socket.on('close', () => done({ at: Date.now(), data }));
    });
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

/** GET from another loopback address (127.0.0.2): a client other than the one holding the connections. */
function getFrom(localAddress: string, port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error('no answer in 5 s')));
  });
}

describe('every wait on a client is bounded, and one address cannot take every connection', () => {
  let app: FastifyInstance;
  let database: TestDatabase;
  let port = 0;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    const config = testConfig({
      MAX_CONNECTIONS_PER_ADDRESS: '5',
      HTTP_HEADERS_TIMEOUT_MS: '1000',
      HTTP_REQUEST_TIMEOUT_MS: '2000',
    });
    app = await buildApp({ config, database, sessionSecret: TEST_SESSION_SECRET, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('closes connections past the per-address cap at once, while others still get in', async () => {
    const held = await Promise.all(Array.from({ length: 5 }, () => silentConnection(port)));
    const started = Date.now();
    const extra = await silentConnection(port);
    const ended = await extra.closed;
    expect(ended.at - started).toBeLessThan(500);
    expect(ended.data).toBe('');
    expect(await getFrom('127.0.0.2', port, '/api/health/live')).toBe(200);
    for (const { socket } of held) socket.destroy();
    await Promise.all(held.map(({ closed }) => closed));
    // The server counts them closed a moment later.
    await new Promise((resolve) => setTimeout(resolve, 200));
  });

  it('closes a connection that sends nothing once the headers timeout passes', async () => {
    const started = Date.now();
    const { closed } = await silentConnection(port);
    const ended = await closed;
    expect(ended.at - started).toBeGreaterThanOrEqual(900);
    expect(ended.at - started).toBeLessThan(3500);
  });

  it('cuts off a body sent one byte at a time with 408 once the request timeout passes', async () => {
    const { socket, closed } = await silentConnection(port);
    const started = Date.now();
    socket.write(
      'POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
    );
    const trickle = setInterval(() => {
      if (!socket.destroyed) socket.write(' ');
    }, 200);
    const ended = await closed;
    clearInterval(trickle);
    expect(ended.data).toMatch(/^HTTP\/1\.1 408/);
    expect(ended.at - started).toBeGreaterThanOrEqual(1900);
    expect(ended.at - started).toBeLessThan(4500);
  });
});
