import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/test-database.ts';

const root = path.resolve(import.meta.dirname, '..');

function backup(file: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/backup.ts', file],
      { cwd: root, env: { ...process.env, LOG_LEVEL: 'silent', ...env }, timeout: 120_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` });
      },
    );
  });
}

/**
 * Issue 11, item 8: a PostgreSQL backup holds customers' emails, addresses and password hashes. It is written 0600
 * (whatever the umask), under a temporary name renamed only when complete, and a failed dump leaves nothing behind.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('the PostgreSQL backup file', () => {
  let database: TestDatabase;
  let dir = '';
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-backup-mode-'));
  });
  afterAll(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is private (0600) and complete under its name, with no temporary file left', async () => {
    const file = path.join(dir, 'shop.dump');
    const result = await backup(file, { DATABASE_URL: database.url ?? '' });
    expect(result.code, result.output).toBe(0);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('PGDMP');
    expect(fs.readdirSync(dir)).toEqual(['shop.dump']);
  });

  it('a dump that fails leaves neither a backup nor a partial file', async () => {
    const file = path.join(dir, 'failed.dump');
    const url = new URL(database.url ?? '');
    url.pathname = '/redline_no_such_database';
    const result = await backup(file, { DATABASE_URL: url.toString() });
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/Backup failed/);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('failed'))).toEqual([]);
  });
});
