import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { SERVER_BUNDLE } from '../../scripts/build-server.ts';

const root = path.resolve(import.meta.dirname, '../..');
/** Preloaded into every server: it stops itself if the test process that started it dies first. */
export const EXIT_WITH_PARENT = path.join(import.meta.dirname, 'exit-with-parent.js');

/** A port nobody listens on right now: the OS picks it (listen on 0), we read it and close. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** `count` distinct free ports: all are held open until every one is chosen, so none is handed out twice. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => net.createServer());
  try {
    return await Promise.all(
      servers.map(
        (server) =>
          new Promise<number>((resolve, reject) => {
            server.on('error', reject);
            server.listen(0, '127.0.0.1', () => {
              const address = server.address();
              resolve(typeof address === 'object' && address ? address.port : 0);
            });
          }),
      ),
    );
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/**
 * Settings that point a server at something shared (a database, a Redis, a mail server, a port). A developer's
 * shell may export them; a test server must only use what the test hands it, or two runs would meet there.
 */
const SHARED_RESOURCE_VARIABLES = ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'PORT', 'DATA_DIR', 'PUBLIC_URL'];

export function isolatedEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of SHARED_RESOURCE_VARIABLES) delete copy[name];
  return copy;
}

/**
 * Load shedding by event-loop lag answers 503 when the machine is busy, and on a machine shared with other suites
 * it is busy for reasons that have nothing to do with the test's own requests. Off for test servers (a test may
 * turn it back on); src/server/plugins/load-shedding.test.ts tests the shedding itself.
 */
export const UNDER_TEST_ON_A_SHARED_MACHINE = {
  LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
  LOAD_SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
  // Nor by answer time: a loaded machine answers late whatever the test asks (faults-connections turns it on).
  LOAD_SHED_MAX_WAIT_MS: '0',
} as const;

/**
 * A test's buyers are new accounts, mostly unverified, all placing from 127.0.0.1: the caps on what unpaid orders
 * hold across accounts would refuse what such a test is about (stock races, crashes, pages). Off for test servers
 * (a test may turn them back on); src/server/modules/orders/holds-across-accounts.test.ts tests the caps.
 */
export const BUYERS_SHARE_ONE_ADDRESS = {
  ORDER_UNVERIFIED_HOLD_LIMIT: 'off',
  ORDER_ADDRESS_HOLD_LIMIT: 'off',
  ORDER_NEW_ACCOUNT_HOLD_PERCENT: 'off',
} as const;

/** The log line the server writes once it has started (after migrating and seeding): see src/server/main.ts. */
export const SERVING_LINE = /Redline Parts is serving on http/;

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** LOG_LEVEL the process was started with. */
  logLevel: string;
  /** The settings the test gave it (DATABASE_URL, DATA_DIR…): where a helper finds what the server wrote. */
  env: Record<string, string>;
  output(): string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Every server a test started and that has not exited yet. `stopAllServers()` (run after every test file by
 * test/setup.ts) ends them, so a failed assertion never leaves a server running; so does the test process's exit.
 */
const running = new Set<ServerProcess>();

process.once('exit', () => {
  for (const server of running) server.child.kill('SIGKILL');
});

/** The running server answering at `url` (a helper that was handed only the address finds its settings). */
export function runningServerAt(url: string): ServerProcess | undefined {
  return [...running].find((server) => server.url === url.replace(/\/$/, ''));
}

/** Kills every server still running (SIGKILL: a test that wanted a clean stop has already stopped it) and waits. */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...running].map((server) => server.stop('SIGKILL')));
}

/** Starts the production server (`node dist/server/main.js`; test/global-setup.ts builds it when stale) as its own process. */
export function startServer(env: Record<string, string>, port: number): ServerProcess {
  let output = '';
  const childEnv = {
    ...isolatedEnv(),
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'info',
    ...UNDER_TEST_ON_A_SHARED_MACHINE,
    ...BUYERS_SHARE_ONE_ADDRESS,
    ...env,
  };
  const child = spawn(process.execPath, ['--import', EXIT_WITH_PARENT, SERVER_BUNDLE], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  // 'close', not 'exit': by then both pipes are drained, so output() holds everything the process wrote.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const server: ServerProcess = {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    logLevel: childEnv.LOG_LEVEL ?? 'info',
    env,
    output: () => output,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  running.add(server);
  void exited.then(() => running.delete(server));
  return server;
}

/**
 * Waits until the captured output matches `pattern`, or the process ends, or the deadline passes (then throws
 * with the output). What the server printed before answering a request may still be in the pipe when the answer
 * arrives: read output only after waiting for the line you need.
 */
export async function waitForOutput(server: ServerProcess, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let ended = false;
  void server.exited.then(() => {
    ended = true;
  });
  while (!pattern.test(server.output())) {
    if (ended) throw new Error(`server exited without printing ${pattern}:\n${server.output()}`);
    if (Date.now() > deadline)
      throw new Error(`server did not print ${pattern} within ${timeoutMs} ms:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return server.output();
}

/**
 * How long a server may take to start. A first start creates its PGlite directory, migrates and seeds (an scrypt
 * hash): quick on a quiet machine, many times slower on a shared one running several suites at once.
 */
export const START_TIMEOUT_MS = 90_000;

/**
 * Waits until /api/health answers, or the process ends (then throws with its output). When the server logs at
 * info (the default here), it also waits for the 'serving' line, so everything the start-up printed before it
 * (the seeded admin's sign-in, for one) is in output().
 */
export async function waitForHealthy(server: ServerProcess, timeoutMs = START_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let ended = false;
  void server.exited.then(() => {
    ended = true;
  });
  while (Date.now() < deadline) {
    if (ended) throw new Error(`server exited before it was healthy:\n${server.output()}`);
    try {
      const res = await fetch(`${server.url}/api/health`);
      if (res.ok) {
        if (logsInfo(server)) await waitForOutput(server, SERVING_LINE, Math.max(deadline - Date.now(), 5_000));
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`server not healthy after ${timeoutMs} ms:\n${server.output()}`);
}

function logsInfo(server: ServerProcess): boolean {
  return ['info', 'debug', 'trace'].includes(server.logLevel);
}
