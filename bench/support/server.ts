import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServerBundle, SERVER_BUNDLE } from '../../scripts/build-server.ts';
import { EXIT_WITH_PARENT, freePort } from '../../test/support/server-process.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** BENCH_PORT when set, otherwise a port the OS says is free: two benchmarks (or a test run) never collide. */
export async function benchPort(): Promise<number> {
  return process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : freePort();
}

/**
 * Load shedding off: the latency or throughput at a fixed number of busy connections is what the benchmarks measure,
 * not how the server sheds an overload (a shared machine trips the adaptive limit and answers 503s at once; the
 * shedding has its own tests).
 */
export const NO_LOAD_SHEDDING: Readonly<Record<string, string>> = {
  LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
  LOAD_SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
  LOAD_SHED_MAX_WAIT_MS: '0',
};

export interface BenchServerOptions {
  port: number;
  /** A PostgreSQL connection string; when absent the server uses PGlite under `dataDir`. */
  databaseUrl?: string | undefined;
  /** PGlite data directory (ignored when `databaseUrl` is given). */
  dataDir?: string | undefined;
  /** Extra environment, e.g. `{ ADMIN_EMAIL, ADMIN_PASSWORD, SEED_DEMO_DATA: 'false' }`. */
  env?: Record<string, string>;
  /** How long to wait for /api/health before giving up. */
  startTimeoutMs?: number;
  /** How often to ask /api/health while waiting (default 200 ms; the start-up benchmark asks every 10 ms). */
  pollMs?: number;
}

export interface BenchServer {
  baseUrl: string;
  pid: number;
  /** Where the server writes its mails (no SMTP_URL): a benchmark's customer signs up with the link found there. */
  mailDir: string;
  /** SIGTERM, then wait for the process to exit (it closes the database cleanly). */
  stop(): Promise<void>;
}

/**
 * Starts the production server (`node dist/server/main.js`, NODE_ENV=production, built first if stale) as a child process on the given
 * database and port, and resolves once GET /api/health answers 200. Benchmarks measure exactly what ships.
 */
export async function startProductionServer(options: BenchServerOptions): Promise<BenchServer> {
  if (!options.databaseUrl && !options.dataDir) throw new Error('startProductionServer needs databaseUrl or dataDir');
  const env: NodeJS.ProcessEnv = {
    // Production mode refuses to start without a payment provider named; benchmarks pay at the test gateway.
    PAYMENT_PROVIDER: 'test',
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(options.port),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    // A benchmark must not be throttled by the rate limiter's notion of one client.
    // No cap on requests per connection: autocannon sends the next request before it reads the `Connection: close`
    // Node adds to the 1,000th answer, and Node answers that one 503 (cached reads reach it within a second).
    HTTP_MAX_REQUESTS_PER_SOCKET: '0',
    ...options.env,
  };
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  else {
    delete env.DATABASE_URL;
    env.DATA_DIR = options.dataDir;
  }
  // The tests' preload: if this benchmark is killed, its server stops too instead of running on.
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops (to see where its CPU goes).
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_CPU_PROF)]
    : [];
  await ensureServerBundle();
  const child = spawn(process.execPath, [...profile, '--import', EXIT_WITH_PARENT, SERVER_BUNDLE], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${options.port}`;
  try {
    await waitForHealth(child, baseUrl, options.startTimeoutMs ?? 60_000, options.pollMs ?? 200);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    baseUrl,
    pid: child.pid ?? -1,
    mailDir: path.resolve(repoRoot, env.DATA_DIR ?? './data', 'mail'),
    stop: () => stopChild(child),
  };
}

async function waitForHealth(child: ChildProcess, baseUrl: string, timeoutMs: number, pollMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: number | null = null;
  child.once('exit', (code) => {
    exited = code ?? -1;
  });
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`The server exited with code ${exited} before it became healthy`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error(`The server at ${baseUrl} did not become healthy within ${timeoutMs} ms`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
