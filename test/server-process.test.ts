import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  freePort,
  SERVING_LINE,
  type ServerProcess,
  START_TIMEOUT_MS,
  startServer,
  waitForHealthy,
  waitForOutput,
} from './support/server-process.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-proc-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** The seeded admin's password as the one plain line on stderr gives it (the log record never holds it). */
const ADMIN_RECORD = /Admin sign-in: admin@redline\.dev \/ \S+/;

/** Runs `work`, then stops every server it started that is still running, whether `work` passed or failed. */
async function withServers(work: (started: ServerProcess[]) => Promise<void>): Promise<void> {
  const started: ServerProcess[] = [];
  try {
    await work(started);
  } finally {
    await Promise.all(started.map((server) => server.stop('SIGKILL')));
  }
}

describe('the production server process on PGlite', () => {
  it(
    'seeds on first start, keeps data across a restart, and shuts down cleanly',
    async () => {
      await withServers(async (started) => {
        const port = await freePort();
        const first = startServer({ DATA_DIR: dataDir }, port);
        started.push(first);
        await waitForHealthy(first);
        // The record is written before the server listens, but the pipe can deliver it after /api/health answers.
        expect(await waitForOutput(first, ADMIN_RECORD)).toMatch(ADMIN_RECORD);
        const parts = (await (await fetch(`${first.url}/api/part`)).json()) as unknown[];
        expect(parts.length).toBeGreaterThanOrEqual(12);
        // The server runs as a bundle (ADR 022): a dependency inside it that reads files beside its own code (the API
        // docs' page and files) still finds them in node_modules.
        for (const file of [
          '/api/docs/static/index.html',
          '/api/docs/static/swagger-ui.css',
          '/api/docs/static/logo.svg',
        ]) {
          expect((await fetch(`${first.url}${file}`)).status, file).toBe(200);
        }
        expect(await first.stop('SIGTERM')).toBe(0);
        expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false);
        expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(true);

        const second = startServer({ DATA_DIR: dataDir }, port);
        started.push(second);
        await waitForHealthy(second);
        const again = (await (await fetch(`${second.url}/api/part`)).json()) as unknown[];
        expect(again).toEqual(parts);
        // Seeding never runs against a database that has data: no second admin password is printed. Everything
        // seeding would print comes before the 'serving' line, so the absence is only checked once that line is in.
        const output = await waitForOutput(second, SERVING_LINE);
        expect(output).not.toMatch(/Demo admin account/);
        expect(output).not.toMatch(/Admin sign-in:/);

        // A second process on the same data directory refuses to start instead of corrupting it.
        const intruder = startServer({ DATA_DIR: dataDir }, await freePort());
        started.push(intruder);
        expect(await intruder.exited).toBe(1);
        expect(intruder.output()).toMatch(/is in use by another Redline Parts process/);

        expect(await second.stop('SIGINT')).toBe(0);
      });
    },
    4 * START_TIMEOUT_MS,
  );
});

/** Runs `work` with a fresh, empty data directory, removed afterwards whether `work` passed or failed. */
async function withEmptyDataDir(prefix: string, work: (dir: string) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    await work(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('a stop that comes while the jobs are still starting (they start after the server answers, ADR 022)', () => {
  it(
    'exits 0, as any asked-for stop does',
    async () => {
      await withServers(async (started) => {
        await withEmptyDataDir('redline-proc-early-stop-', async (emptyDir) => {
          // At `warn` the server writes no "serving" line to wait for: the stop follows the first healthy answer.
          const server = startServer({ DATA_DIR: emptyDir, LOG_LEVEL: 'warn' }, await freePort());
          started.push(server);
          for (let answered = false; !answered; await new Promise((resolve) => setTimeout(resolve, 5))) {
            answered = await fetch(`${server.url}/api/health`).then(
              (res) => res.ok,
              () => false,
            );
          }
          // The jobs take a moment more on PGlite (pg-boss creates its queues): the stop lands meanwhile.
          expect(await server.stop('SIGTERM')).toBe(0);
          expect(server.output()).not.toMatch(/start-up failed/);
        });
      });
    },
    START_TIMEOUT_MS,
  );
});

describe('a half-configured Stripe', () => {
  it(
    'stops the server before it serves anything, with one sentence naming the missing keys',
    async () => {
      await withServers(async (started) => {
        await withEmptyDataDir('redline-proc-stripe-', async (emptyDir) => {
          const server = startServer(
            { DATA_DIR: emptyDir, STRIPE_SECRET_KEY: 'sk_test_half', STRIPE_PUBLISHABLE_KEY: 'pk_test_half' },
            await freePort(),
          );
          started.push(server);
          expect(await server.exited).toBe(1);
          expect(server.output()).toMatch(/Stripe is half configured: STRIPE_WEBHOOK_SECRET is missing/);
          expect(server.output()).not.toMatch(SERVING_LINE);
          // Refused before anything was written: not even the database was created.
          expect(fs.readdirSync(emptyDir)).toEqual([]);
        });
      });
    },
    START_TIMEOUT_MS,
  );
});

describe.runIf(process.env.TEST_DATABASE_URL)('the production server process on PostgreSQL', () => {
  it(
    'migrates, seeds and serves the catalogue, and warns when PUBLIC_URL is missing in production',
    async () => {
      const { withAdminClient, adminConnectionUrl } = await import('./support/postgres-admin.ts');
      const base = process.env.TEST_DATABASE_URL ?? '';
      // Unique per run and per clone: two copies of the suite may share this PostgreSQL.
      const name = `redline_proc_${Date.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
      const pgDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-proc-pg-'));
      await withAdminClient(base, (c) => c.query(`CREATE DATABASE "${name}"`));
      try {
        await withServers(async (started) => {
          const server = startServer(
            // As deployed: production mode, but PUBLIC_URL forgotten.
            {
              DATABASE_URL: adminConnectionUrl(base, name),
              DATA_DIR: pgDataDir,
              NODE_ENV: 'production',
              PAYMENT_PROVIDER: 'test',
            },
            await freePort(),
          );
          started.push(server);
          await waitForHealthy(server);
          // The public answer says only up or down (the driver is for the health port and admins).
          expect(await (await fetch(`${server.url}/api/health`)).json()).toEqual({ status: 'ok' });
          const parts = (await (await fetch(`${server.url}/api/part`)).json()) as unknown[];
          expect(parts.length).toBeGreaterThanOrEqual(12);
          // Mail links would point at localhost: the operator is told once, at start.
          expect(await waitForOutput(server, /PUBLIC_URL is not set/)).toMatch(
            /links in mails point to http:\/\/localhost:\d+\. Set PUBLIC_URL/,
          );
          // The test gateway, named outright in production, is announced at every start.
          expect(await waitForOutput(server, /PAYMENT_PROVIDER=test in production/)).toMatch(/charges nothing/);
          expect(await server.stop()).toBe(0);
        });
      } finally {
        await withAdminClient(base, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
        fs.rmSync(pgDataDir, { recursive: true, force: true });
      }
    },
    2 * START_TIMEOUT_MS,
  );
});
