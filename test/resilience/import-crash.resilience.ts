import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  call,
  crashHarness,
  logInAdmin,
  SESSION_SECRET,
  scratchDatabase,
  sleep,
} from './support.ts';

/*
 * A CSV import runs in the background of the instance that received the file, reading it from a spool file in the
 * temporary directory. Here the server is killed with SIGKILL mid-import; started again on the same data, it must
 * show the import as failed at once (not as running until someone reads it two minutes later) and must have
 * removed its spool file.
 */

const ROWS = 100_000;

const harness = crashHarness('redline-import-crash-');

interface WireImport {
  id: string;
  status: string;
  rowsDone: number;
  message: string | null;
}

async function importCrash(driver: 'pglite' | 'postgres'): Promise<void> {
  const dataDir = harness.directory(`${driver}-`);
  const spoolDir = harness.directory(`${driver}-tmp-`);
  let url = '';
  if (driver === 'postgres') {
    const database = await scratchDatabase('importcrash');
    harness.cleanups.push(database.drop);
    url = database.url;
  }
  const env = {
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    // The spool files go to the temporary directory: this server's own, to see what is left in it.
    TMPDIR: spoolDir,
    SESSION_SECRET,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    // The seed makes the admin account (ADMIN_EMAIL) that uploads the file.
    SEED_DEMO_DATA: 'true',
    REDIS_URL: '',
    LOG_LEVEL: 'info',
    TEST_ONLY_FAST_PASSWORD_HASH: 'true',
    JOBS_ENABLED: 'false',
    STATIC_DIR: path.join(dataDir, 'no-web-build'),
  };

  const first = await harness.launch(env);
  const token = await logInAdmin(first.url);
  const rows = Array.from({ length: ROWS }, (_, i) => `CRASH-${i},Crash part ${i},12.50,5,/images/parts/x.svg`);
  const upload = await fetch(`${first.url}/api/admin/catalog/import?fileName=crash.csv`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    body: `mpn,name,price,stock,image_url\n${rows.join('\n')}\n`,
  });
  expect(upload.status).toBe(202);
  const { id } = (await upload.json()) as WireImport;
  // Under way for a moment (the embedded database, busy with its batches, may not even answer a read meanwhile).
  await sleep(2_000);
  // The spool file is there until the import ends: it is still running when the process is killed.
  expect(fs.readdirSync(spoolDir).filter((name) => name.startsWith('catalog-'))).toEqual([`catalog-import-${id}.csv`]);
  await first.stop('SIGKILL');

  // On its port again: the instance's name is its DATA_DIR's id, its host and its port (instance-identity.ts).
  const second = await harness.launch(env, { port: first.port });
  const after = await call<WireImport>(second.url, 'GET', `/api/admin/catalog/import/${id}`, {
    token: await logInAdmin(second.url),
  });
  expect(after.status).toBe(200);
  expect(after.body.status, 'failed at once, not two minutes later').toBe('failed');
  expect(after.body.message).toMatch(/server stopped or restarted/);
  expect(after.body.rowsDone).toBeLessThan(ROWS);
  expect(
    fs.readdirSync(spoolDir).filter((name) => name.startsWith('catalog-')),
    'the spool file is gone',
  ).toEqual([]);
  await second.stop('SIGTERM');
}

describe('an import killed mid-run is failed and its spool file removed when its server starts again', () => {
  it('PGlite', async () => {
    await importCrash('pglite');
  });

  it.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL', async () => {
    await importCrash('postgres');
  });
});
