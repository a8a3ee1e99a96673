import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { loadConfig } from '../src/server/config.ts';
import { openPglite } from '../src/server/db/client.ts';
import { lockDataDir, makeDataDirPrivate } from '../src/server/db/data-dir-lock.ts';

/*
 * Restores a file written by scripts/backup.ts into the configured database:
 *   node scripts/restore.ts <file> [--force]
 *  - DATABASE_URL set: pg_restore in one transaction (all or nothing). The target should be a fresh, empty database;
 *    one that already holds tables is refused unless --force, which replaces the objects the backup contains.
 *  - Otherwise into DATA_DIR for PGlite, with the server stopped (the same lock as the server's). An existing
 *    database there is refused unless --force, which moves it aside to pgdata.before-restore-<time> (never deleted).
 * Start the server afterwards: it applies any migrations newer than the backup.
 */

const usage = 'Usage: node scripts/restore.ts <backup-file> [--force]';

function pgConnectionEnv(databaseUrl: string): { target: string; env: NodeJS.ProcessEnv } {
  // The password goes through PGPASSWORD rather than the command line, where `ps` would show it to every user.
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { target: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

function fileKind(file: string): 'pg_dump' | 'gzip' | 'unknown' {
  const head = Buffer.alloc(5);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, 5, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (head.toString('latin1') === 'PGDMP') return 'pg_dump';
  if (head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  return 'unknown';
}

async function existingTableCount(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

async function restorePostgres(databaseUrl: string, file: string, force: boolean): Promise<void> {
  const tables = await existingTableCount(databaseUrl);
  if (tables > 0 && !force) {
    throw new Error(
      `The target database already holds ${tables} tables. Restore into a fresh database (createdb …), ` +
        'or pass --force to replace the objects the backup contains.',
    );
  }
  const { target, env } = pgConnectionEnv(databaseUrl);
  const args = ['--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', `--dbname=${target}`];
  if (tables > 0) args.unshift('--clean', '--if-exists');
  const result = spawnSync('pg_restore', [...args, file], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.error) {
    throw new Error(`Could not run pg_restore (${result.error.message}). Install the PostgreSQL client tools.`);
  }
  if (result.status !== 0) throw new Error(`pg_restore failed with exit code ${result.status}; nothing was changed.`);
}

async function restorePglite(dataDir: string, file: string, force: boolean): Promise<string | null> {
  // Throws with "in use by another Redline Parts process" while the server runs.
  const release = lockDataDir(dataDir);
  try {
    const pgdata = path.join(dataDir, 'pgdata');
    let movedAside: string | null = null;
    if (fs.existsSync(pgdata) && fs.readdirSync(pgdata).length > 0) {
      if (!force) {
        throw new Error(
          `${path.resolve(pgdata)} already holds a database. Restore into an empty DATA_DIR, or pass --force ` +
            'to move the current one aside.',
        );
      }
      movedAside = `${pgdata}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      fs.renameSync(pgdata, movedAside);
    }
    fs.mkdirSync(pgdata, { recursive: true });
    try {
      const handle = await openPglite(pgdata, new Blob([fs.readFileSync(file)]));
      try {
        // Proves the restored files form a working database before anyone relies on them.
        await handle.db.execute(sql`SELECT count(*) FROM pg_tables`);
      } finally {
        await handle.close();
      }
    } catch (error) {
      fs.rmSync(pgdata, { recursive: true, force: true });
      if (movedAside) fs.renameSync(movedAside, pgdata);
      throw error;
    }
    // The restored files are written with mode 0666 whatever the umask: the shop user's alone from here on.
    makeDataDirPrivate(dataDir);
    return movedAside;
  } finally {
    release();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const file = args.find((arg) => !arg.startsWith('--'));
  if (!file) throw new Error(usage);
  const source = path.resolve(file);
  if (!fs.existsSync(source)) throw new Error(`No such backup file: ${source}`);
  const config = loadConfig();
  const kind = fileKind(source);
  const started = Date.now();
  if (config.DATABASE_URL) {
    if (kind !== 'pg_dump') {
      throw new Error(`${source} is not a pg_dump custom-format file (a PGlite backup needs DATABASE_URL unset).`);
    }
    await restorePostgres(config.DATABASE_URL, source, force);
    console.log(`Restored ${source} into PostgreSQL (${((Date.now() - started) / 1000).toFixed(1)} s).`);
    return;
  }
  if (kind !== 'gzip') {
    throw new Error(`${source} is not a PGlite backup (a pg_dump file needs DATABASE_URL set to the target).`);
  }
  const movedAside = await restorePglite(config.DATA_DIR, source, force);
  console.log(
    `Restored ${source} into PGlite in ${path.resolve(config.DATA_DIR)} (${((Date.now() - started) / 1000).toFixed(1)} s).`,
  );
  if (movedAside) console.log(`The previous database was moved to ${movedAside}.`);
}

main().catch((error: unknown) => {
  console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
