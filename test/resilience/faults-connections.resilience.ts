import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type ServerProcess, startServer, waitForHealthy } from '../support/server-process.ts';
import { percentile } from './fault-support.ts';
import { SESSION_SECRET, sleep } from './support.ts';

/*
 * Issue 11: clients that never speak, and more clients than the server can serve. 10,000 silent connections from
 * one address must not shut anyone else out (health still answers, from another loopback address, 127.0.0.2), and
 * are closed by the headers timeout; at 2,000 concurrent connections the server sheds load early (some 503s with
 * Retry-After), health still answers, and what it does serve stays fast (p99 under 1 s).
 */

const SILENT = 10_000;
const OVERLOAD_CONNECTIONS = 2000;
const OVERLOAD_SECONDS = 10;

let scratch = '';
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop('SIGKILL');
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** One GET from `localAddress`, with its status and time (0: no answer within 5 s or refused). */
function get(port: number, pathName: string, localAddress: string, agent?: http.Agent) {
  const started = performance.now();
  return new Promise<{ status: number; ms: number; retryAfter?: string }>((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: pathName, localAddress, agent: agent ?? false }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          ms: performance.now() - started,
          ...(typeof res.headers['retry-after'] === 'string' ? { retryAfter: res.headers['retry-after'] } : {}),
        }),
      );
    });
    req.setTimeout(5000, () => req.destroy());
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
  });
}

function openFiles(pid: number): number {
  return fs.readdirSync(`/proc/${pid}/fd`).length;
}

describe('silent connections and overload (PGlite server process)', () => {
  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-faults-conn-'));
    server = startServer(
      {
        DATA_DIR: path.join(scratch, 'data'),
        STATIC_DIR: path.join(scratch, 'no-web-build'),
        SESSION_SECRET,
        SEED_DEMO_DATA: 'true',
        ADMIN_PASSWORD: 'Resilience-Admin-Password-91',
        JOBS_ENABLED: 'false',
        LOG_LEVEL: 'warn',
        HTTP_HEADERS_TIMEOUT_MS: '5000',
      },
      await freePort(),
    );
    await waitForHealthy(server, 120_000);
  });

  it('10,000 silent connections shut nobody else out, and are closed by the headers timeout', async () => {
    if (!server) throw new Error('server not started');
    const { port } = server;
    const pid = server.child.pid ?? 0;
    const before = openFiles(pid);

    const sockets: net.Socket[] = [];
    let refused = 0;
    const opened = Date.now();
    for (let batch = 0; batch < SILENT / 500; batch++) {
      await Promise.all(
        Array.from(
          { length: 500 },
          () =>
            new Promise<void>((resolve) => {
              const socket = net.connect({ port, host: '127.0.0.1' });
              socket.on('error', () => {
                refused += 1;
                resolve();
              });
              socket.on('close', () => resolve());
              socket.on('connect', () => {
                sockets.push(socket);
                resolve();
              });
            }),
        ),
      );
    }
    const openMs = Date.now() - opened;
    const duringFiles = openFiles(pid);
    const health = await get(port, '/api/health', '127.0.0.2');
    const live = await get(port, '/api/health/live', '127.0.0.2');
    const catalogue = await get(port, '/api/part', '127.0.0.2');
    expect(health.status).toBe(200);
    expect(health.ms).toBeLessThan(2000);
    expect(live.status).toBe(200);
    expect(catalogue.status).toBe(200);
    // The server holds at most MAX_CONNECTIONS_PER_ADDRESS (1000) of them, not 10,000.
    expect(duringFiles - before).toBeLessThan(1200);

    // Silent ones are closed once the headers timeout has passed (checked every second): the server holds no more
    // files than before. (The client may still count some as open: those the kernel's accept queue never passed
    // on; they cost the server nothing.)
    await sleep(7000);
    const afterFiles = openFiles(pid);
    for (const socket of sockets) socket.destroy();
    expect(afterFiles - before).toBeLessThan(20);
    console.log(
      'silent connections:',
      JSON.stringify({
        attempted: SILENT,
        openMs,
        refusedByClient: refused,
        serverFilesBefore: before,
        serverFilesDuring: duringFiles,
        serverFilesAfterTimeout: afterFiles,
        healthMs: Math.round(health.ms),
      }),
    );
  });

  it('at 2,000 connections it sheds some load with 503 + Retry-After, health answers, and p99 of what is served is under 1 s', async () => {
    if (!server) throw new Error('server not started');
    const { port } = server;
    const agent = new http.Agent({ keepAlive: true, maxSockets: OVERLOAD_CONNECTIONS });
    const served: number[] = [];
    let shed = 0;
    let shedWithoutRetryAfter = 0;
    let failed = 0;
    const statuses: Record<string, number> = {};
    const healthChecks: { status: number; ms: number }[] = [];
    const stopAt = Date.now() + OVERLOAD_SECONDS * 1000;
    // Each of 2,000 clients sends one request after another (a closed loop), from eight addresses (250 each, under
    // the per-address cap, as many customers are).
    const client = async (_: unknown, index: number) => {
      const from = `127.0.1.${(index % 8) + 1}`;
      while (Date.now() < stopAt) {
        const res = await get(port, '/api/part?limit=12', from, agent);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status === 200) served.push(res.ms);
        else if (res.status === 503) {
          shed += 1;
          if (!res.retryAfter) shedWithoutRetryAfter += 1;
          // A client told to come back later does not hammer on at once.
          await sleep(200);
        } else failed += 1;
      }
    };
    const monitor = async () => {
      while (Date.now() < stopAt) {
        healthChecks.push(await get(port, '/api/health/live', '127.0.0.2'));
        await sleep(250);
      }
    };
    await Promise.all([...Array.from({ length: OVERLOAD_CONNECTIONS }, client), monitor()]);
    agent.destroy();

    const figures = {
      served: served.length,
      shed,
      failed,
      statuses,
      servedP50: Math.round(percentile(served, 50)),
      servedP99: Math.round(percentile(served, 99)),
      healthChecks: healthChecks.length,
      healthWorstMs: Math.round(Math.max(...healthChecks.map((h) => h.ms))),
      healthNon200: healthChecks.filter((h) => h.status !== 200).length,
    };
    console.log('overload:', JSON.stringify(figures));
    expect(shed).toBeGreaterThan(0);
    expect(shedWithoutRetryAfter).toBe(0);
    expect(served.length).toBeGreaterThan(0);
    expect(figures.servedP99).toBeLessThan(1000);
    expect(figures.healthNon200).toBe(0);
    expect(figures.healthWorstMs).toBeLessThan(2000);
    expect(server.output()).not.toMatch(/"statusCode":500/);
  });
});
