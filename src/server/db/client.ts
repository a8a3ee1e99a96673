import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import type { DatabaseDriver } from '../../shared/enums.ts';
import * as schema from './schema.ts';

/** The one database type the app codes against, whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The handle inside `db.transaction(async (tx) => …)`: always use it there, never the outer `db`. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Which driver a handle runs on; the list itself is shared with the health check's schema. */
export type { DatabaseDriver };

export interface DatabaseHandle {
  db: Database;
  driver: DatabaseDriver;
  close(): Promise<void>;
}

function wrapPglite(client: PGlite): DatabaseHandle {
  return {
    db: drizzlePglite({ client, schema }) as unknown as Database,
    driver: 'pglite',
    close: () => client.close(),
  };
}

/** PGlite persisted in a directory (the embedded default), or in memory when `dataDir` is undefined. */
export async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<DatabaseHandle> {
  const client = await PGlite.create({ dataDir, loadDataDir });
  return wrapPglite(client);
}

export function openPostgres(connectionString: string, maxConnections = 10): DatabaseHandle {
  const pool = new pg.Pool({ connectionString, max: maxConnections, idleTimeoutMillis: 30_000 });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  return {
    db: drizzlePostgres({ client: pool, schema }) as unknown as Database,
    driver: 'postgres',
    close: () => pool.end(),
  };
}
