import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { DatabaseHandle } from './client.ts';

/** Any fixed number: the advisory lock that serialises migrations across instances. */
const MIGRATION_LOCK_KEY = 72_535_277;

/**
 * The committed migrations, `drizzle/` at the project root: found by walking up from this module, which runs from
 * `src/server/db` (sources, tests) or from the production bundle in `dist/server` (ADR 022).
 */
function findMigrationsFolder(): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    const folder = path.join(dir, 'drizzle');
    if (fs.existsSync(path.join(folder, 'meta', '_journal.json'))) return folder;
    if (path.dirname(dir) === dir) throw new Error(`No drizzle/ migrations folder above ${import.meta.dirname}`);
  }
}

let migrationsFolderFound: string | undefined;

/** Applies the committed SQL migrations in order; already applied ones are skipped. */
export async function runMigrations(handle: DatabaseHandle): Promise<void> {
  migrationsFolderFound ??= findMigrationsFolder();
  const migrationsFolder = migrationsFolderFound;
  if (handle.driver === 'pglite') {
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder });
  } else {
    // Several instances may start at once against one PostgreSQL: an advisory lock lets one migrate while the
    // others wait, then find nothing left to do.
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
      await migratePostgres(tx as unknown as NodePgDatabase, { migrationsFolder });
    });
  }
}
