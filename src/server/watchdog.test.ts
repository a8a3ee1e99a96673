import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const watchdog = path.join(import.meta.dirname, 'watchdog.ts');

/** A child process that starts the watchdog, then does `then` (JavaScript source) on its main thread. */
function child(kind: 'process' | 'thread', stallSeconds: number, then: string) {
  const source = `import { startWatchdog } from ${JSON.stringify(watchdog)};
    const dog = startWatchdog(${stallSeconds}, ${JSON.stringify(kind)});
    ${then}`;
  const started = Date.now();
  const proc = spawn(process.execPath, ['--input-type=module', '-e', source], { stdio: ['ignore', 'pipe', 'pipe'] });
  // A watchdog that failed would leave a spinning process behind: it goes anyway, and the test fails on its signal.
  const guard = setTimeout(() => proc.kill('SIGKILL'), 12_000);
  proc.on('close', () => clearTimeout(guard));
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise<{ signal: NodeJS.Signals | null; code: number | null; ms: number; stderr: string; pid: number }>(
    (resolve) => {
      proc.on('close', (code, signal) =>
        resolve({ code, signal, ms: Date.now() - started, stderr, pid: proc.pid ?? 0 }),
      );
    },
  );
}

/** Watchdog processes still running for the process `pid` (their command line ends with its pid). */
function watchdogsOf(pid: number): string[] {
  return fs.readdirSync('/proc').filter((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      return args.includes('redline-watchdog') && args.at(-1) === String(pid);
    } catch {
      return false;
    }
  });
}

async function noWatchdogLeft(pid: number): Promise<string[]> {
  for (let i = 0; i < 40 && watchdogsOf(pid).length > 0; i += 1) await new Promise((r) => setTimeout(r, 50));
  return watchdogsOf(pid);
}

describe.each(['process', 'thread'] as const)(
  'the watchdog (a %s) ends a process whose main thread cannot run any more',
  (kind) => {
    it('kills a process whose event loop is stuck (as PGlite spinning on a full disk leaves it)', async () => {
      const result = await child(kind, 1, 'setTimeout(() => { for (;;) {} }, 100);');
      expect(result.signal).toBe('SIGKILL');
      expect(result.stderr).toMatch(/watchdog: the event loop has not turned for \d+ s/);
      expect(result.ms).toBeLessThan(10_000);
    });

    it('kills a process whose graceful stop overran its deadline while the loop was stuck', async () => {
      const result = await child(kind, 0, 'dog.stopping(500); setTimeout(() => { for (;;) {} }, 50);');
      expect(result.signal).toBe('SIGKILL');
      expect(result.stderr).toMatch(/graceful stop overran its time cap/);
    });

    it('leaves a healthy process alone, and never keeps it alive', async () => {
      const result = await child(kind, 1, 'setTimeout(() => {}, 1500);');
      expect(result.code).toBe(0);
      expect(result.signal).toBeNull();
      expect(result.stderr).toBe('');
      expect(await noWatchdogLeft(result.pid)).toEqual([]);
    });

    it('enforces the deadline of a stop that was signalled to the whole process group', async () => {
      const source = `import { startWatchdog } from ${JSON.stringify(watchdog)};
      const dog = startWatchdog(0, ${JSON.stringify(kind)});
      process.on('SIGTERM', () => { dog.stopping(500); for (;;) {} });
      setInterval(() => {}, 1000);`;
      // A process group of its own, signalled as a terminal's Ctrl+C or systemd's stop signal the whole group.
      const proc = spawn(process.execPath, ['--input-type=module', '-e', source], {
        stdio: ['ignore', 'ignore', 'pipe'],
        detached: true,
      });
      let stderr = '';
      proc.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const closed = new Promise<NodeJS.Signals | null>((resolve) =>
        proc.on('close', (_code, signal) => resolve(signal)),
      );
      try {
        await new Promise((resolve) => setTimeout(resolve, 700));
        process.kill(-(proc.pid ?? 0), 'SIGTERM');
        // Bounded: a watchdog that failed leaves the process spinning, and the test must get to its `finally`.
        const ended = await Promise.race([
          closed,
          new Promise((resolve) => setTimeout(resolve, 8000, 'still running')),
        ]);
        expect(ended).toBe('SIGKILL');
        expect(stderr).toMatch(/graceful stop overran its time cap/);
        expect(await noWatchdogLeft(proc.pid ?? 0)).toEqual([]);
      } finally {
        // Whatever happened above, the spinning process goes (a watchdog that failed would leave it spinning).
        if (proc.exitCode === null && proc.signalCode === null) process.kill(-(proc.pid ?? 0), 'SIGKILL');
      }
    }, 15_000);

    it('goes when the process it watches is killed', async () => {
      const result = await child(kind, 30, 'setTimeout(() => process.kill(process.pid, "SIGKILL"), 300);');
      expect(result.signal).toBe('SIGKILL');
      expect(await noWatchdogLeft(result.pid)).toEqual([]);
    });
  },
);
