import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, type ServerProcess, startServer, waitForHealthy, waitForOutput } from '../support/server-process.ts';
import { allOrders, call, createPart, faultServerEnv, logInAdmin, signUp, sleep } from './support.ts';

/*
 * Issue 11: PGlite on a small disk (a tmpfs of its own) that fills up. Writes are refused with 507 and Retry-After
 * below DISK_FREE_FLOOR_MB, before PGlite could wedge; reads go on; health says so; SIGTERM stops the process; a
 * start on a full disk names the disk; and once space is freed a restart comes back with every confirmed order.
 * Also with the floor off: the write that finds the disk full is refused, PGlite is never called again (it would
 * spin), and SIGTERM still stops the process.
 */

const TMPFS_MB = 200;
const FLOOR_MB = 64;

let mountPoint = '';
let mounted = false;
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop('SIGKILL');
  if (mounted) execFileSync('umount', ['-l', mountPoint]);
  if (mountPoint) fs.rmSync(mountPoint, { recursive: true, force: true });
});

function tryMountTmpfs(): boolean {
  mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_MB}m`, 'tmpfs', mountPoint], { stdio: 'ignore' });
    mounted = true;
  } catch {
    mounted = false;
  }
  return mounted;
}

function freeMb(dir: string): number {
  const stats = fs.statfsSync(dir);
  return (stats.bavail * stats.bsize) / 1024 / 1024;
}

/** Fills the disk until `leaveMb` is free (0: as full as it gets). */
function fill(dir: string, leaveMb: number): string {
  const file = path.join(dir, `filler-${Date.now()}`);
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(1024 * 1024);
  try {
    while (freeMb(dir) > leaveMb + 1) fs.writeSync(fd, chunk);
    if (leaveMb === 0) {
      const small = Buffer.alloc(4096);
      for (;;) fs.writeSync(fd, small);
    }
  } catch {
    // ENOSPC: as full as it gets.
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

function env(dataDir: string, floorMb: number): Record<string, string> {
  return faultServerEnv(dataDir, {
    DISK_FREE_FLOOR_MB: String(floorMb),
    SHUTDOWN_TIMEOUT_SECONDS: '5',
    WATCHDOG_STALL_SECONDS: '10',
    // Mail is delivered (to files under DATA_DIR): a customer signs up with the link the sign-up mails.
    JOBS_ENABLED: 'true',
  });
}

async function launch(dataDir: string, floorMb: number): Promise<ServerProcess> {
  const server = startServer(env(dataDir, floorMb), await freePort());
  servers.push(server);
  await waitForHealthy(server, 120_000);
  return server;
}

async function stopWithin(server: ServerProcess, ms: number): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  const timer = setTimeout(() => server.child.kill('SIGKILL'), ms + 5000);
  const code = await server.stop('SIGTERM');
  clearTimeout(timer);
  return { code, ms: Date.now() - started };
}

describe('PGlite on a disk that fills up (a tmpfs of its own)', () => {
  it('refuses writes below the floor, says so, stops on SIGTERM, names the disk, and restarts with every order', async () => {
    if (!tryMountTmpfs()) {
      console.log(
        'faults-disk: SKIPPED, cannot mount a tmpfs here (needs root); the floor is unit-tested in disk-floor.test.ts',
      );
      return;
    }
    const dataDir = path.join(mountPoint, 'data');
    // The first start seeds the demo data and its admin.
    let server = await launch(dataDir, FLOOR_MB);
    const base = () => server.url;
    const admin = await logInAdmin(base());
    const part = await createPart(base(), admin, { name: 'Disk Pads', price: 5, stock: 10_000 });
    const customer = await signUp(base(), 'disk');
    const confirmed: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await call<{ _id: string }>(base(), 'POST', '/api/myorder', {
        token: customer.token,
        body: { partId: part._id, quantity: 1 },
      });
      expect(res.status).toBe(201);
      confirmed.push(res.body._id);
    }

    // Below the floor: refused before PGlite is asked.
    const filler = fill(mountPoint, FLOOR_MB / 2);
    await sleep(1200);
    const refused = await call<{ error: { code: string } }>(base(), 'POST', '/api/myorder', {
      token: customer.token,
      body: { partId: part._id, quantity: 1 },
    });
    expect(refused.status).toBe(507);
    expect(refused.body.error.code).toBe('insufficient_storage');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await call(base(), 'GET', '/api/part')).status).toBe(200);
    const health = await call<{ error: { code: string; details?: unknown[] } }>(base(), 'GET', '/api/health');
    expect(health.status).toBe(503);
    expect(health.body.error.code).toBe('insufficient_storage');
    // The public answer names the reason, never the disk's figures (those are the health port's and an admin's).
    expect(health.body.error.details).toBeUndefined();
    const belowFloorStop = await stopWithin(server, 10_000);
    expect(belowFloorStop.code).toBe(0);

    // Completely full: a start names the disk and what to do, and exits.
    const rest = fill(mountPoint, 0);
    const failing = startServer(env(dataDir, FLOOR_MB), await freePort());
    servers.push(failing);
    const failedWith = await failing.exited;
    expect(failedWith).toBe(1);
    expect(failing.output()).toMatch(/could not be opened.*disk holding .*MB free, below DISK_FREE_FLOOR_MB=64/s);

    // Space again: every confirmed order is there, and writes go through.
    fs.rmSync(rest);
    fs.rmSync(filler);
    server = await launch(dataDir, FLOOR_MB);
    const ids = new Set((await allOrders(base(), await logInAdmin(base()))).map((order) => order._id));
    for (const id of confirmed) expect(ids.has(id), `confirmed order ${id}`).toBe(true);
    const again = await call(base(), 'POST', '/api/myorder', {
      token: customer.token,
      body: { partId: part._id, quantity: 1 },
    });
    expect(again.status).toBe(201);

    // With the floor off, the disk itself fills: the write that finds it full fails, PGlite is not called again,
    // and SIGTERM still stops the process (PGlite would otherwise spin on its next statement).
    const full = await stopWithin(server, 10_000);
    expect(full.code).toBe(0);
    server = await launch(dataDir, 0);
    const nearlyFull = fill(mountPoint, 0);
    const outcomes: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await call(base(), 'POST', '/api/myorder', {
        token: customer.token,
        body: { partId: part._id, quantity: 1, address: 'x'.repeat(250) },
      });
      outcomes.push(res.status);
      if (res.status !== 201) break;
    }
    expect(outcomes.at(-1)).not.toBe(201);
    expect(outcomes).not.toContain(500);
    const wedgedStop = await stopWithin(server, 15_000);
    expect(wedgedStop.code === 0 || wedgedStop.code === null).toBe(true);
    fs.rmSync(nearlyFull);
    server = await launch(dataDir, FLOOR_MB);
    expect((await call(base(), 'GET', '/api/health')).status).toBe(200);
    await waitForOutput(server, /serving/);
    console.log(
      'disk faults:',
      JSON.stringify({ belowFloorStopMs: belowFloorStop.ms, fullFloorOffOutcomes: outcomes, wedgedStop }),
    );
  });
});
