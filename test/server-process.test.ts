import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServer, waitForHealthy } from './support/server-process.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-proc-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('the production server process on PGlite', () => {
  it('seeds on first start, keeps data across a restart, and shuts down cleanly', async () => {
    const port = await freePort();
    const first = startServer({ DATA_DIR: dataDir }, port);
    await waitForHealthy(first);
    expect(first.output()).toMatch(/Demo admin account: admin@redline\.dev \/ password \S+/);
    const parts = (await (await fetch(`${first.url}/api/part`)).json()) as unknown[];
    expect(parts.length).toBeGreaterThanOrEqual(12);
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(true);

    const second = startServer({ DATA_DIR: dataDir }, port);
    await waitForHealthy(second);
    const again = (await (await fetch(`${second.url}/api/part`)).json()) as unknown[];
    expect(again).toEqual(parts);
    // Seeding never runs against a database that has data: no second admin password is printed.
    expect(second.output()).not.toMatch(/Demo admin account/);

    // A second process on the same data directory refuses to start instead of corrupting it.
    const intruder = startServer({ DATA_DIR: dataDir }, await freePort());
    expect(await intruder.exited).toBe(1);
    expect(intruder.output()).toMatch(/is in use by another Redline Parts process/);

    expect(await second.stop('SIGINT')).toBe(0);
  }, 90_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)('the production server process on PostgreSQL', () => {
  it('migrates, seeds and serves the catalogue', async () => {
    const { withAdminClient, adminConnectionUrl } = await import('./support/postgres-admin.ts');
    const base = process.env.TEST_DATABASE_URL ?? '';
    const name = `redline_proc_${Date.now().toString(36)}`;
    await withAdminClient(base, (c) => c.query(`CREATE DATABASE "${name}"`));
    try {
      const server = startServer({ DATABASE_URL: adminConnectionUrl(base, name), DATA_DIR: dataDir }, await freePort());
      await waitForHealthy(server);
      const health = (await (await fetch(`${server.url}/api/health`)).json()) as { database: { driver: string } };
      expect(health.database.driver).toBe('postgres');
      const parts = (await (await fetch(`${server.url}/api/part`)).json()) as unknown[];
      expect(parts.length).toBeGreaterThanOrEqual(12);
      expect(await server.stop()).toBe(0);
    } finally {
      await withAdminClient(base, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  }, 90_000);
});
