import path from 'node:path';
import type { AppConfig } from '../config.ts';
import { type DatabaseHandle, defaultPostgresTimeouts, openPglite, openPostgres } from './client.ts';
import { lockDataDir, makeDataDirPrivate } from './data-dir-lock.ts';
import { DiskFloor } from './disk-floor.ts';
import { runMigrations } from './migrate.ts';

type DatabaseSettings = Pick<AppConfig, 'DATABASE_URL' | 'DATA_DIR'> &
  Partial<
    Pick<
      AppConfig,
      'DB_CONNECT_TIMEOUT_MS' | 'DB_STATEMENT_TIMEOUT_MS' | 'DB_IDLE_IN_TRANSACTION_TIMEOUT_MS' | 'DISK_FREE_FLOOR_MB'
    >
  >;

/** The default floor when a script opens the database without the server's configuration. */
const DEFAULT_FLOOR_MB = 64;

/**
 * PostgreSQL when DATABASE_URL is set, otherwise PGlite under DATA_DIR (locked against a second process, writes
 * refused below the disk floor). Migrations are applied before anything else touches the database.
 */
export async function openDatabase(config: DatabaseSettings): Promise<{ handle: DatabaseHandle; release: () => void }> {
  if (config.DATABASE_URL) {
    // Migrations on a connection of their own without the statement bound (building an index may take minutes),
    // then the app's pool with every wait bounded.
    const migrator = openPostgres(config.DATABASE_URL, 1);
    try {
      await runMigrations(migrator);
    } finally {
      await migrator.close();
    }
    const handle = openPostgres(config.DATABASE_URL, 10, {
      connectMs: config.DB_CONNECT_TIMEOUT_MS ?? defaultPostgresTimeouts.connectMs,
      statementMs: config.DB_STATEMENT_TIMEOUT_MS ?? defaultPostgresTimeouts.statementMs,
      idleInTransactionMs: config.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS ?? defaultPostgresTimeouts.idleInTransactionMs,
    });
    return { handle, release: () => {} };
  }
  const disk = new DiskFloor(config.DATA_DIR, config.DISK_FREE_FLOOR_MB ?? DEFAULT_FLOOR_MB);
  const pgdata = path.join(config.DATA_DIR, 'pgdata');
  let release: () => void;
  try {
    release = lockDataDir(config.DATA_DIR);
  } catch (error) {
    // Even the lock file cannot be written on a full disk.
    throw explainOpenFailure(error, pgdata, disk);
  }
  try {
    let handle: DatabaseHandle;
    try {
      handle = await openPglite(pgdata, undefined, disk);
    } catch (error) {
      throw explainOpenFailure(error, pgdata, disk);
    }
    // PGlite unpacks its first files with mode 0666 whatever the umask: closed here, after it made them.
    makeDataDirPrivate(config.DATA_DIR);
    await runMigrations(handle);
    return { handle, release };
  } catch (error) {
    release();
    throw error;
  }
}

/** PGlite's own words for a full disk are "PGlite failed to initialize properly": say which disk, and what to do. */
function explainOpenFailure(error: unknown, pgdata: string, disk: DiskFloor): unknown {
  const report = disk.report();
  const noSpace = (error as NodeJS.ErrnoException | undefined)?.code === 'ENOSPC';
  if (report.ok && !noSpace) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(
    `The embedded database in ${pgdata} could not be opened (${reason}): the disk holding ${report.path} has ` +
      `${report.freeMb} MB free, below DISK_FREE_FLOOR_MB=${report.floorMb}. Free some space there and start again.`,
    { cause: error },
  );
}
