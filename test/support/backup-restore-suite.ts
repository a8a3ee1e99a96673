import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type DatabaseDriver, type DatabaseHandle, pgliteExtensions } from '../../src/server/db/client.ts';
import { openDatabase } from '../../src/server/db/open-database.ts';
import { parts, reviews, users } from '../../src/server/db/schema.ts';
import { seedDemoData } from '../../src/server/db/seed.ts';
import { openToOthers } from './file-modes.ts';
import { adminConnectionUrl, withAdminClient } from './postgres-admin.ts';
import { freePort, startServer, waitForHealthy } from './server-process.ts';
import { databaseChecksum } from './table-checksum.ts';

/*
 * A backup is only as good as its restore: seed, mark, back up with scripts/backup.ts, damage the original,
 * restore with scripts/restore.ts into a fresh place, and prove every table is back exactly and the real server
 * serves it. PGlite always; PostgreSQL when TEST_DATABASE_URL is set (in databases this file creates and drops).
 */

const root = path.resolve(import.meta.dirname, '../..');
const SESSION_SECRET = 'backup-restore-test-secret-0123456789abcdefghij';
const quietLog = { info: () => {}, warn: () => {} };

interface Location {
  /** The environment that points the scripts and the server at this database. */
  env: Record<string, string>;
  open(): Promise<{ handle: DatabaseHandle; release: () => void }>;
  destroy(): Promise<void>;
}

/**
 * An empty place to restore into, or with `migrated`, an empty database at the current schema, as the server
 * leaves one on its first start. For PGlite that is a copy of the run's migrated snapshot (see
 * test/global-setup.ts): creating a PGlite directory from nothing takes several seconds and is what
 * test/server-process.test.ts covers.
 */
async function newLocation(driver: DatabaseDriver, scratch: string, migrated = false): Promise<Location> {
  if (driver === 'pglite') {
    const dataDir = fs.mkdtempSync(path.join(scratch, 'data-'));
    if (migrated) {
      const snapshot = new Blob([fs.readFileSync(inject('pgliteSnapshot'))]);
      const client = await PGlite.create({
        dataDir: path.join(dataDir, 'pgdata'),
        loadDataDir: snapshot,
        extensions: pgliteExtensions,
      });
      await client.close();
    }
    return {
      env: { DATABASE_URL: '', DATA_DIR: dataDir },
      open: () => openDatabase({ DATABASE_URL: undefined, DATA_DIR: dataDir }),
      destroy: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const baseUrl = process.env.TEST_DATABASE_URL as string;
  const name = `redline_ops_backup_${crypto.randomBytes(5).toString('hex')}`;
  await withAdminClient(baseUrl, (admin) => admin.query(`CREATE DATABASE "${name}"`));
  const url = adminConnectionUrl(baseUrl, name);
  return {
    env: { DATABASE_URL: url, DATA_DIR: path.join(scratch, 'unused-data-dir') },
    open: () => openDatabase({ DATABASE_URL: url, DATA_DIR: path.join(scratch, 'unused-data-dir') }),
    destroy: async () => {
      await withAdminClient(baseUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

function runScript(
  script: 'backup' | 'restore',
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [`scripts/${script}.ts`, ...args],
      { cwd: root, env: { ...process.env, ...env, LOG_LEVEL: 'silent' }, timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

async function withDatabase<T>(location: Location, work: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const { handle, release } = await location.open();
  try {
    return await work(handle);
  } finally {
    await handle.close();
    release();
  }
}

/**
 * The whole backup-and-restore story on one database kind. One test file per kind, so Vitest runs the two on
 * both workers at once: each is a chain of child processes that takes most of a minute.
 */
export function describeBackupAndRestore(driver: DatabaseDriver): void {
  describe.skipIf(driver === 'postgres' && !process.env.TEST_DATABASE_URL)(`backup and restore [${driver}]`, () => {
    backupAndRestoreSuite(driver);
  });
}

function backupAndRestoreSuite(driver: DatabaseDriver): void {
  let scratch = '';
  const locations: Location[] = [];
  let source: Location;
  let target: Location;
  let backupFile = '';
  let before: Record<string, string> = {};
  let markerId = '';

  const location = async (migrated = false) => {
    const created = await newLocation(driver, scratch, migrated);
    locations.push(created);
    return created;
  };

  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), `redline-backup-${driver}-`));
    backupFile = path.join(scratch, driver === 'pglite' ? 'shop.tar.gz' : 'shop.dump');
    source = await location(true);
    const { handle, release } = await source.open();
    try {
      await seedDemoData(handle.db, { ADMIN_EMAIL: undefined, ADMIN_PASSWORD: 'backup-test-admin-password' }, quietLog);
      const [marker] = await handle.db
        .insert(parts)
        .values({
          name: 'Backup marker ✓',
          description: 'Written just before the backup; "quotes", \'apostrophes\' and a | pipe.',
          img: 'https://example.com/marker.png',
          priceCents: 12_345,
          availableQuantity: 77,
          minimumOrder: 3,
        })
        .returning({ id: parts.id });
      markerId = marker?.id ?? '';
      await handle.db.insert(users).values({ email: 'marker@example.com', displayName: 'Marker Person' });
      before = await databaseChecksum(handle.db);
      if (driver === 'pglite') {
        // While this process holds the data directory (as a running server does), a backup must refuse.
        const refused = await runScript('backup', [backupFile], source.env);
        expect(refused.code).not.toBe(0);
        expect(refused.output).toContain('in use by another Redline Parts process');
        expect(fs.existsSync(backupFile)).toBe(false);
      }
    } finally {
      await handle.close();
      release();
    }
  }, 180_000);

  afterAll(async () => {
    for (const created of locations) await created.destroy();
    fs.rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  it('backs up a seeded database with its marker', async () => {
    expect(markerId).not.toBe('');
    expect(Object.values(before).every((digest) => digest !== '')).toBe(true);
    const result = await runScript('backup', [backupFile], source.env);
    expect(result.output).toContain('Backed up');
    expect(result.code).toBe(0);
    expect(fs.statSync(backupFile).size).toBeGreaterThan(1000);
  }, 180_000);

  it('restores into a fresh database exactly as it was, after the original was damaged', async () => {
    await withDatabase(source, async (handle) => {
      await handle.db.delete(parts).where(eq(parts.id, markerId));
      await handle.db.update(parts).set({ availableQuantity: 0 });
      await handle.db.delete(reviews);
      expect(await databaseChecksum(handle.db)).not.toEqual(before);
    });

    target = await location();
    const result = await runScript('restore', [backupFile], target.env);
    expect(result.output).toContain('Restored');
    expect(result.code).toBe(0);
    if (driver === 'pglite') {
      // The restored files are the shop user's alone (PGlite writes them 0666 whatever the umask).
      expect(openToOthers(target.env.DATA_DIR as string)).toEqual([]);
    }

    await withDatabase(target, async (handle) => {
      expect(await databaseChecksum(handle.db)).toEqual(before);
      const [marker] = await handle.db.select().from(parts).where(eq(parts.id, markerId));
      expect(marker).toMatchObject({ name: 'Backup marker ✓', priceCents: 12_345, availableQuantity: 77 });
    });
  }, 180_000);

  it('refuses to restore over a database that holds data, and changes nothing', async () => {
    const result = await runScript('restore', [backupFile], target.env);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/already holds/);
    await withDatabase(target, async (handle) => {
      expect(await databaseChecksum(handle.db)).toEqual(before);
    });
  }, 180_000);

  it('refuses a backup of the other database kind', async () => {
    const other = driver === 'pglite' ? { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' } : { DATABASE_URL: '' };
    const result = await runScript('restore', [backupFile], { ...target.env, ...other });
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/is not a (pg_dump custom-format file|PGlite backup)/);
  }, 60_000);

  it('with --force, puts the damaged original back as it was', async () => {
    const result = await runScript('restore', [backupFile, '--force'], source.env);
    expect(result.output).toContain('Restored');
    expect(result.code).toBe(0);
    await withDatabase(source, async (handle) => {
      expect(await databaseChecksum(handle.db)).toEqual(before);
    });
    if (driver === 'pglite') {
      const dataDir = source.env.DATA_DIR as string;
      expect(fs.readdirSync(dataDir).some((name) => name.startsWith('pgdata.before-restore-'))).toBe(true);
    }
  }, 180_000);

  it('the production server starts on the restored database and serves the marker', async () => {
    const server = startServer(
      { ...target.env, SESSION_SECRET, STATIC_DIR: path.join(scratch, 'no-web-build'), LOG_LEVEL: 'warn' },
      await freePort(),
    );
    try {
      await waitForHealthy(server);
      const health = await fetch(`${server.url}/api/health`);
      // The public answer says up or down; the driver is checked by the data the restored server serves.
      expect(await health.json()).toEqual({ status: 'ok' });
      const response = await fetch(`${server.url}/api/part/${markerId}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        _id: markerId,
        name: 'Backup marker ✓',
        price: 123.45,
        availablequantity: 77,
        minimunorder: 3,
      });
    } finally {
      expect(await server.stop()).toBe(0);
    }
    await withDatabase(target, async (handle) => {
      // Serving reads changed nothing: start-up found its migrations applied and its data already seeded.
      expect(await databaseChecksum(handle.db)).toEqual(before);
    });
  }, 180_000);

  it.runIf(driver === 'pglite')(
    'backs up a data directory left by a killed server (stale lock), consistent',
    async () => {
      const server = startServer(
        { ...target.env, SESSION_SECRET, STATIC_DIR: path.join(scratch, 'no-web-build'), LOG_LEVEL: 'warn' },
        await freePort(),
      );
      await waitForHealthy(server);
      // Served while the backup below is refused, then killed without any chance to clean up.
      const refused = await runScript('backup', [path.join(scratch, 'refused.tar.gz')], target.env);
      expect(refused.code).not.toBe(0);
      expect(refused.output).toContain(`pid ${server.child.pid}`);
      await server.stop('SIGKILL');
      expect(fs.existsSync(path.join(target.env.DATA_DIR as string, 'server.lock'))).toBe(true);

      const afterCrash = path.join(scratch, 'after-crash.tar.gz');
      const result = await runScript('backup', [afterCrash], target.env);
      expect(result.output).toContain('Backed up');
      expect(result.code).toBe(0);
      const again = await location();
      expect((await runScript('restore', [afterCrash], again.env)).code).toBe(0);
      await withDatabase(again, async (handle) => {
        expect(await databaseChecksum(handle.db)).toEqual(before);
      });
    },
    180_000,
  );
}
