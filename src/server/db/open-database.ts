import path from 'node:path';
import type { AppConfig } from '../config.ts';
import { type DatabaseHandle, openPglite, openPostgres } from './client.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { runMigrations } from './migrate.ts';

/**
 * PostgreSQL when DATABASE_URL is set, otherwise PGlite under DATA_DIR (locked against a second process).
 * Migrations are applied before anything else touches the database.
 */
export async function openDatabase(
  config: Pick<AppConfig, 'DATABASE_URL' | 'DATA_DIR'>,
): Promise<{ handle: DatabaseHandle; release: () => void }> {
  if (config.DATABASE_URL) {
    const handle = openPostgres(config.DATABASE_URL);
    await runMigrations(handle);
    return { handle, release: () => {} };
  }
  const release = lockDataDir(config.DATA_DIR);
  try {
    const handle = await openPglite(path.join(config.DATA_DIR, 'pgdata'));
    await runMigrations(handle);
    return { handle, release };
  } catch (error) {
    release();
    throw error;
  }
}
