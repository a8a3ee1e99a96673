import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SESSION_SECRET, testConfig } from '../../../../test/support/test-app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../../../test/support/test-database.ts';
import { buildApp } from '../../app.ts';
import { catalogImports } from '../../db/schema.ts';
import { importFileName, uploadFileName } from './upload-spool.ts';

/*
 * An import runs on the instance that received its file, from a spool file in the temporary directory. Killed
 * mid-run, that instance leaves the import marked running and its file (up to 50 MB) behind. Its next start fails
 * the import at once and removes what no running import reads; another live instance's import and files stay.
 */
describe.each(testDrivers)('imports and spool files left by a crash, after a restart [%s]', (driver) => {
  let database: TestDatabase;
  const apps: FastifyInstance[] = [];
  const files: string[] = [];
  // The apps' temporary directory (their spool directory) is this suite's own: the sweep with a clock an hour ahead
  // must not meet other test files' spool files.
  const previousTmpdir = process.env.TMPDIR;
  let spoolDir = '';

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-import-recovery-'));
    process.env.TMPDIR = spoolDir;
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    for (const file of files.splice(0)) fs.rmSync(file, { force: true });
  });
  afterAll(async () => {
    if (previousTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmpdir;
    if (spoolDir) fs.rmSync(spoolDir, { recursive: true, force: true });
    await database?.close();
  });

  async function start(instanceId: string): Promise<FastifyInstance> {
    const app = await buildApp({
      config: testConfig(),
      database,
      sessionSecret: TEST_SESSION_SECRET,
      logger: false,
      instanceId,
    });
    apps.push(app);
    await app.ready();
    return app;
  }

  async function running(owner: string, lastBatchSecondsAgo: number, status: 'running' | 'done' = 'running') {
    const at = new Date(Date.now() - lastBatchSecondsAgo * 1000);
    const [row] = await database.db
      .insert(catalogImports)
      .values({
        dryRun: false,
        fileName: 'parts.csv',
        createdByEmail: 'admin@example.com',
        totalRows: 1000,
        rowsDone: 500,
        owner,
        status,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    if (!row) throw new Error('not inserted');
    return { id: row.id, file: spoolFile(importFileName(row.id)) };
  }

  function spoolFile(name: string): string {
    const file = path.join(spoolDir, name);
    fs.writeFileSync(file, 'mpn,name\n');
    files.push(file);
    return file;
  }

  const recordOf = async (id: string) =>
    (await database.db.select().from(catalogImports).where(eq(catalogImports.id, id)))[0];

  it('fails at once the imports this instance was running, removes their files, leaves another live instance’s', async () => {
    const me = `shop-${crypto.randomUUID()}`;
    const other = `shop-${crypto.randomUUID()}`;
    // Killed 10 seconds after its last batch: not stale yet, so before this only a read 2 minutes later failed it.
    const mine = await running(me, 10);
    const theirs = await running(other, 10);
    const theirsDead = await running(other, 600);
    const finished = await running(other, 5, 'done');
    const myUpload = spoolFile(uploadFileName(me));
    const theirUpload = spoolFile(uploadFileName(other));
    const unrelated = spoolFile(`not-an-import-${crypto.randomUUID()}.csv`);

    const app = await start(me);
    expect(os.tmpdir()).toBe(spoolDir);

    const failed = await recordOf(mine.id);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed?.message).toMatch(/server stopped or restarted/);
    expect(failed?.finishedAt).not.toBeNull();
    expect((await recordOf(theirs.id))?.status).toBe('running');
    expect((await recordOf(theirsDead.id))?.status).toBe('failed');
    expect((await recordOf(finished.id))?.status).toBe('done');
    const exists = (file: string) => fs.existsSync(file);
    expect(exists(mine.file)).toBe(false);
    expect(exists(theirsDead.file)).toBe(false);
    expect(exists(finished.file)).toBe(false);
    expect(exists(myUpload)).toBe(false);
    // Another live instance's running import and the upload it is receiving, and files that are no spool's, stay.
    expect(exists(theirs.file)).toBe(true);
    expect(exists(theirUpload)).toBe(true);
    expect(exists(unrelated)).toBe(true);

    // The hourly sweep: once that import has ended, its file goes too.
    await database.db.update(catalogImports).set({ status: 'done' }).where(eq(catalogImports.id, theirs.id));
    expect(await app.services.catalogImports.sweepSpool()).toBe(1);
    expect(exists(theirs.file)).toBe(false);
    // An upload nobody has touched for an hour is no upload under way.
    expect(await app.services.catalogImports.sweepSpool(new Date(Date.now() + 3_600_000))).toBe(1);
    expect(exists(theirUpload)).toBe(false);
  });
});
