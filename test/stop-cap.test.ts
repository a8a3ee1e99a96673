import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashPassword, PRODUCTION_SCRYPT_PARAMS } from '../src/server/modules/accounts/password-hasher.ts';
import { freePort, startServer, waitForHealthy } from './support/server-process.ts';

const hasher = path.resolve(import.meta.dirname, '../src/server/modules/accounts/password-hasher.ts');

/**
 * A process exit waits for every piece of work queued on libuv's thread pool, so hashes queued there (a burst of
 * sign-ups) once held a graceful stop seconds past SHUTDOWN_TIMEOUT_SECONDS. Here a process queues many production-cost
 * hashes, exits at once, and must be gone within about one hash's time, not all of theirs.
 */
describe('a process exit with password hashes waiting', () => {
  it('waits only for the few hashes on the thread pool, not for every one asked for', async () => {
    const script = `
      const { hashPassword, PRODUCTION_SCRYPT_PARAMS } = await import(${JSON.stringify(hasher)});
      const one = Date.now();
      await hashPassword('one to time', PRODUCTION_SCRYPT_PARAMS);
      process.stdout.write(String(Date.now() - one) + '\\n');
      for (let i = 0; i < 40; i++) void hashPassword('waiting ' + i, PRODUCTION_SCRYPT_PARAMS);
      setTimeout(() => { process.stdout.write('exit\\n'); process.exit(0); }, 20);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let exitAsked = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!exitAsked && output.includes('exit\n')) exitAsked = Date.now();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const exitTook = Date.now() - exitAsked;
    expect(code, output).toBe(0);
    const oneHashMs = Number(output.split('\n')[0]);
    // 40 hashes on a pool of four threads take ten rounds; at most the three on the pool finish before the exit.
    // Two rounds' time and a second is room for a busy machine, and far below ten rounds.
    expect(exitTook, `one hash ${oneHashMs} ms, exit took ${exitTook} ms`).toBeLessThan(2 * oneHashMs + 1000);
  }, 120_000);
});

describe('a graceful stop with slow work in flight (the production server)', () => {
  it('exits 0 within SHUTDOWN_TIMEOUT_SECONDS and a small margin while sign-ups wait for their hashes', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-stop-cap-'));
    try {
      const server = startServer(
        { DATA_DIR: dataDir, SEED_DEMO_DATA: 'false', SHUTDOWN_TIMEOUT_SECONDS: '2', LOG_LEVEL: 'warn' },
        await freePort(),
      );
      await waitForHealthy(server);
      // Production-cost hashes (no TEST_ONLY_FAST_PASSWORD_HASH): each sign-up holds a thread for a good while.
      const signUps = Array.from({ length: 30 }, (_, i) =>
        fetch(`${server.url}/api/signup`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            name: `Stop Cap ${i}`,
            email: `stop.cap.${i}@example.com`,
            password: `Gearbox-Harbor-${i}-Lantern`,
          }),
        }).then(
          (res) => res.status,
          () => 0,
        ),
      );
      // Meanwhile, how long one production hash takes on this machine right now (a shared machine may be busy).
      const hashStarted = Date.now();
      await hashPassword('the time of one hash', PRODUCTION_SCRYPT_PARAMS);
      const oneHashMs = Math.max(1000 - (Date.now() - hashStarted), 0);
      await new Promise((resolve) => setTimeout(resolve, oneHashMs));
      const hashMs = Date.now() - hashStarted - oneHashMs;
      const stopped = Date.now();
      const code = await server.stop('SIGTERM');
      const took = Date.now() - stopped;
      await Promise.all(signUps);
      // Before, the exit waited for every queued hash until the watchdog killed it at the cap + 5 s (no exit code).
      expect(code, server.output()).toBe(0);
      // The cap (2 s), the last answers' flush (0.3 s), and the rest of the few hashes already on the thread pool.
      expect(took, `stop took ${took} ms (one hash ${hashMs} ms)`).toBeLessThan(2000 + 300 + 2 * hashMs + 1000);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
