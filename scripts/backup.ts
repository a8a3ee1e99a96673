import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/server/config.ts';
import { openPglite } from '../src/server/db/client.ts';
import { lockDataDir } from '../src/server/db/data-dir-lock.ts';

/*
 * Backs up the configured database into one file:  node scripts/backup.ts <file>
 *  - DATABASE_URL set: `pg_dump --format=custom` (restore with pg_restore, or scripts/restore.ts).
 *  - Otherwise the PGlite data under DATA_DIR, as PGlite's own gzipped tarball of its data directory. The server
 *    must be stopped: the script takes the same lock the server takes, so neither can start while the other runs.
 */

const usage = 'Usage: node scripts/backup.ts <backup-file>';

function pgConnectionEnv(databaseUrl: string): { target: string; env: NodeJS.ProcessEnv } {
  // The password goes through PGPASSWORD rather than the command line, where `ps` would show it to every user.
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { target: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/**
 * `pg_dump` into a temporary name created 0600 beforehand (pg_dump keeps an existing file's mode, and the umask is
 * 077 for anything else it creates), renamed to the backup's name only once the dump is complete: a backup holds
 * customers' emails, addresses and password hashes, and a half-written one must never pass for a whole one.
 */
function backupPostgres(databaseUrl: string, file: string): void {
  const { target, env } = pgConnectionEnv(databaseUrl);
  const partial = `${file}.partial`;
  fs.rmSync(partial, { force: true });
  fs.closeSync(fs.openSync(partial, 'wx', 0o600));
  const previousUmask = process.umask(0o077);
  try {
    // No owners or grants: the dump restores into any database whatever role owns it there.
    const result = spawnSync(
      'pg_dump',
      ['--format=custom', '--no-owner', '--no-privileges', `--file=${partial}`, `--dbname=${target}`],
      { env, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    if (result.error) {
      throw new Error(`Could not run pg_dump (${result.error.message}). Install the PostgreSQL client tools.`);
    }
    if (result.status !== 0) throw new Error(`pg_dump failed with exit code ${result.status}.`);
    const fd = fs.openSync(partial, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, file);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  } finally {
    process.umask(previousUmask);
  }
}

async function backupPglite(dataDir: string, file: string): Promise<void> {
  const pgdata = path.join(dataDir, 'pgdata');
  if (!fs.existsSync(path.join(pgdata, 'PG_VERSION'))) {
    throw new Error(`No PGlite database in ${path.resolve(pgdata)}: set DATA_DIR (or DATABASE_URL for PostgreSQL).`);
  }
  // Throws with "in use by another Redline Parts process" while the server runs.
  const release = lockDataDir(dataDir);
  try {
    // Opening the database first replays its log, so a directory left by a killed server is backed up consistent.
    const handle = await openPglite(pgdata);
    try {
      await handle.db.execute(sql`CHECKPOINT`);
      const client = (handle.db as unknown as { $client: { dumpDataDir(c: 'gzip'): Promise<Blob> } }).$client;
      const blob = await client.dumpDataDir('gzip');
      const partial = `${file}.partial`;
      fs.writeFileSync(partial, Buffer.from(await blob.arrayBuffer()), { mode: 0o600 });
      fs.renameSync(partial, file);
    } finally {
      await handle.close();
    }
  } finally {
    release();
  }
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file || file.startsWith('-')) throw new Error(usage);
  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const config = loadConfig();
  const started = Date.now();
  if (config.DATABASE_URL) backupPostgres(config.DATABASE_URL, target);
  else await backupPglite(config.DATA_DIR, target);
  const size = fs.statSync(target).size;
  const what = config.DATABASE_URL
    ? 'PostgreSQL (pg_dump custom format)'
    : `PGlite in ${path.resolve(config.DATA_DIR)}`;
  console.log(
    `Backed up ${what} to ${target} (${(size / 1024).toFixed(0)} KiB, ${((Date.now() - started) / 1000).toFixed(1)} s).`,
  );
}

main().catch((error: unknown) => {
  console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
