import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EXIT_WITH_PARENT,
  freePort,
  type ServerProcess,
  startServer,
  waitForHealthy,
} from '../support/server-process.ts';
import { percentile } from './fault-support.ts';
import { SESSION_SECRET, sleep } from './support.ts';

/*
 * Issue 11: clients that never speak, and more clients than the server can serve. 10,000 silent connections from
 * one address must not shut anyone else out (health still answers, from another loopback address, 127.0.0.2), and
 * are closed by the headers timeout; at 2,000 concurrent connections the server sheds load early (some 503s),
 * what it does serve stays fast (p99 under 1 s), health answers throughout on its own port (HEALTH_PORT: on the
 * shop's port a new connection waits behind the flood's in the kernel's accept queue, see
 * src/server/plugins/health-listener.ts), and it is ready again by itself once the flood ends. The load comes from
 * a process of its own (test/resilience/load-generator.ts), so that health is timed by a free event loop, not the
 * flooded one.
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
function get(port: number, pathName: string, localAddress: string, agent?: http.Agent, timeoutMs = 5000) {
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
    req.setTimeout(timeoutMs, () => req.destroy());
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
});

/** What test/resilience/load-generator.ts prints when its run ends. */
interface LoadResult {
  statuses: Record<string, number>;
  served: number[];
  errors: number;
  timeouts: number;
}

/** Runs the load generator as its own process (see its header for why) and resolves with what it printed. */
function generateLoad(url: string, connections: number, seconds: number): Promise<LoadResult> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      EXIT_WITH_PARENT,
      path.join(import.meta.dirname, 'load-generator.ts'),
      url,
      String(connections),
      String(seconds),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  generators.add(child);
  return new Promise((resolve, reject) => {
    child.on('close', (code) => {
      generators.delete(child);
      if (code !== 0) return reject(new Error(`load generator exited ${code}: ${err}`));
      resolve(JSON.parse(out) as LoadResult);
    });
  });
}

const generators = new Set<ChildProcess>();

describe('overload (PGlite server process)', () => {
  let overloaded: ServerProcess | undefined;
  afterAll(async () => {
    for (const child of generators) child.kill('SIGKILL');
    await overloaded?.stop('SIGKILL');
  });

  it('at 2,000 connections it sheds some load with 503 + Retry-After, p99 of what is served is under 1 s, health answers throughout, and it is ready again at once after', async () => {
    const dir = fs.mkdtempSync(path.join(scratch || os.tmpdir(), 'overload-'));
    const healthPort = await freePort();
    overloaded = startServer(
      {
        DATA_DIR: path.join(dir, 'data'),
        STATIC_DIR: path.join(dir, 'no-web-build'),
        SESSION_SECRET,
        SEED_DEMO_DATA: 'true',
        ADMIN_PASSWORD: 'Resilience-Admin-Password-91',
        JOBS_ENABLED: 'false',
        LOG_LEVEL: 'warn',
        // The load generator is one address; the per-address cap is not what this test is about.
        MAX_CONNECTIONS_PER_ADDRESS: '0',
        // Shedding as in production (test servers have it off; see test/support/server-process.ts).
        LOAD_SHED_MAX_WAIT_MS: '500',
        LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '1000',
        HEALTH_PORT: String(healthPort),
        // The flood must be work: with the catalogue read cache (ADR 016) a repeated catalogue read is answered from
        // memory, and 2,000 connections of it were no overload at all (146,624 served, not one 503).
        CATALOG_CACHE: 'off',
      },
      await freePort(),
    );
    await waitForHealthy(overloaded, 120_000);
    const { port } = overloaded;

    // What this machine can answer at all, from a load generator of its own (the cheapest route, 100 connections).
    // Only a machine that cannot answer 2,000 clients even once a second (a CI box running other suites) is let off
    // the latency bounds, and says so; a quiet 2-core machine answers about 7,000 a second.
    const capacity = await generateLoad(`http://127.0.0.1:${port}/api/health/live`, 100, 3);
    const capacityPerSecond = Object.values(capacity.statuses).reduce((sum, n) => sum + n, 0) / 3;
    const boundsApply = capacityPerSecond >= OVERLOAD_CONNECTIONS;

    // Health is asked on its own port every half second while 2,000 connections flood the catalogue.
    const healthChecks: { status: number; ms: number }[] = [];
    let flooding = true;
    const monitor = async () => {
      await sleep(500);
      while (flooding) {
        healthChecks.push(await get(healthPort, '/api/health', '127.0.0.2', undefined, 5000));
        await sleep(500);
      }
    };
    const load = generateLoad(`http://127.0.0.1:${port}/api/part?limit=12`, OVERLOAD_CONNECTIONS, OVERLOAD_SECONDS);
    const monitoring = monitor();
    const result = await load.finally(() => {
      flooding = false;
    });
    await monitoring;
    const { served, statuses } = result;

    const figures = {
      capacityPerSecond: Math.round(capacityPerSecond),
      latencyBoundsChecked: boundsApply,
      served: served.length,
      statuses,
      clientErrors: result.errors,
      clientTimeouts: result.timeouts,
      servedP50: Math.round(percentile(served, 50)),
      servedP99: Math.round(percentile(served, 99)),
      healthChecks: healthChecks.length,
      healthWorstMs: Math.round(Math.max(...healthChecks.map((h) => h.ms))),
      healthStatuses: healthChecks.map((h) => h.status),
    };
    console.log('overload:', JSON.stringify(figures));
    // (That shed answers carry Retry-After is checked in src/server/plugins/load-shedding.test.ts.)
    // Once the flood stops, the server is ready again by itself.
    const recoveredBy = Date.now() + 30_000;
    let after = await get(port, '/api/health', '127.0.0.2');
    while (after.status !== 200 && Date.now() < recoveredBy) {
      await sleep(500);
      after = await get(port, '/api/health', '127.0.0.2');
    }
    expect(after.status).toBe(200);
    expect(statuses[503] ?? 0).toBeGreaterThan(0);
    expect(statuses[500] ?? 0).toBe(0);
    expect(served.length).toBeGreaterThan(0);
    expect(healthChecks.length).toBeGreaterThan(5);
    if (boundsApply) {
      expect(figures.servedP99).toBeLessThan(1000);
      // Every health check during the flood was answered (0 = no answer within 5 s), ready or not, and promptly.
      expect(healthChecks.filter((check) => check.status === 0)).toEqual([]);
      expect(figures.healthWorstMs).toBeLessThan(3000);
    } else {
      console.log(
        `overload: latency bounds NOT checked, this machine answers ${Math.round(capacityPerSecond)} requests/s at ` +
          'best: fewer than the 2,000 clients ask each second',
      );
    }
  });
});
