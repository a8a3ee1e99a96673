import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../support/server-process.ts';

/**
 * Private dependencies for the fault tests of issue 11: a PostgreSQL cluster and a Redis of the test's own, on
 * ports the OS picks, in a temporary directory, so they can be stopped, frozen (SIGSTOP) and resumed without
 * touching the shared ones. Every one is registered and torn down on `stopAllFaultDependencies()` and at exit.
 */

const PG_BIN = '/usr/lib/postgresql/15/bin';
const running = new Set<{ destroy(): void }>();

process.once('exit', () => {
  for (const each of running) each.destroy();
});

/** Tears down every private dependency still running (call in afterAll / finally). */
export function stopAllFaultDependencies(): void {
  for (const each of running) each.destroy();
  running.clear();
}

/** A directory the `postgres` user may enter (initdb and the server refuse to run as root). */
function postgresOwnedDir(label: string): string {
  let dir = fs.mkdtempSync(path.join(os.tmpdir(), `redline-${label}-`));
  try {
    execFileSync('runuser', ['-u', 'postgres', '--', 'test', '-w', path.dirname(dir)], { stdio: 'ignore' });
  } catch {
    // The run's TMPDIR is private to root: use /tmp itself, still removed by destroy().
    fs.rmSync(dir, { recursive: true, force: true });
    dir = fs.mkdtempSync(path.join('/tmp', `redline-${label}-`));
  }
  execFileSync('chown', ['postgres:postgres', dir]);
  return dir;
}

function asPostgres(command: string, args: string[]): string {
  return execFileSync('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, command), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((n) => n > 0);
  } catch {
    return [];
  }
}

export interface PrivatePostgres {
  port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust auth, loopback only). */
  url: string;
  start(): void;
  /** `pg_ctl stop -m immediate`: connections drop, new ones are refused. */
  stop(): void;
  /** SIGSTOP to the postmaster and every backend: connections stay open, nothing answers. */
  freeze(): void;
  thaw(): void;
  destroy(): void;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = postgresOwnedDir('pg');
  const data = path.join(dir, 'data');
  const port = await freePort();
  asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const frozen = new Set<number>();
  const postmasterPid = () => Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const signalAll = (signal: NodeJS.Signals) => {
    const pid = postmasterPid();
    for (const each of [pid, ...childPids(pid)]) {
      try {
        process.kill(each, signal);
        if (signal === 'SIGSTOP') frozen.add(each);
      } catch {
        // Gone meanwhile.
      }
    }
  };
  const pg: PrivatePostgres = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => {
      asPostgres('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '30', 'start']);
    },
    stop: () => {
      asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    },
    freeze: () => signalAll('SIGSTOP'),
    thaw: () => {
      for (const pid of frozen) {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {
          // Gone meanwhile.
        }
      }
      frozen.clear();
    },
    destroy: () => {
      running.delete(pg);
      pg.thaw();
      try {
        asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '10', 'stop']);
      } catch {
        // Already stopped.
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  running.add(pg);
  pg.start();
  return pg;
}

export interface PrivateRedis {
  port: number;
  url: string;
  start(): Promise<void>;
  /** SIGKILL: connections drop, new ones are refused. */
  stop(): Promise<void>;
  freeze(): void;
  thaw(): void;
  destroy(): void;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const redis: PrivateRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    start: async () => {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      const deadline = Date.now() + 10_000;
      while (!/Ready to accept connections/.test(output)) {
        if (Date.now() > deadline) throw new Error(`redis-server did not start:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    stop: async () => {
      const current = child;
      if (!current || current.exitCode !== null) return;
      const exited = new Promise((resolve) => current.once('exit', resolve));
      current.kill('SIGCONT');
      current.kill('SIGKILL');
      await exited;
    },
    freeze: () => {
      child?.kill('SIGSTOP');
    },
    thaw: () => {
      child?.kill('SIGCONT');
    },
    destroy: () => {
      running.delete(redis);
      child?.kill('SIGCONT');
      child?.kill('SIGKILL');
    },
  };
  running.add(redis);
  await redis.start();
  return redis;
}

/** Milliseconds a call took, with its result (or the error it threw). */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result?: T; error?: unknown }> {
  const started = performance.now();
  try {
    const result = await work();
    return { ms: performance.now() - started, result };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

/** The p-th percentile (0–100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}
