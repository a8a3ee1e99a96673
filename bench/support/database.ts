import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseHandle } from '../../src/server/db/client.ts';
import { openDatabase } from '../../src/server/db/open-database.ts';
import { withAdminClient } from '../../test/support/postgres-admin.ts';

/** Where a benchmark keeps its data: a PostgreSQL URL, or a PGlite directory. */
export interface BenchTarget {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  describe: string;
}

/**
 * DATABASE_URL from the environment when set, otherwise `BENCH_DATA_DIR` or a fresh temporary PGlite directory.
 * The same target is handed to the seeding script and then to the server.
 */
export function benchTargetFromEnv(prefix = 'redline-bench-'): BenchTarget {
  const databaseUrl = process.env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl) return { databaseUrl, describe: `PostgreSQL ${redact(databaseUrl)}` };
  const dataDir = process.env.BENCH_DATA_DIR?.trim() || fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dataDir, describe: `PGlite in ${dataDir}` };
}

/** Opens (and migrates) the target the same way the server does; release() frees PGlite's directory lock. */
export async function openBenchDatabase(
  target: BenchTarget,
): Promise<{ handle: DatabaseHandle; close(): Promise<void> }> {
  const { handle, release } = await openDatabase({
    DATABASE_URL: target.databaseUrl,
    DATA_DIR: target.dataDir ?? './data',
  });
  return {
    handle,
    close: async () => {
      await handle.close();
      release();
    },
  };
}

/** Creates an empty PostgreSQL database next to `serverUrl`'s (e.g. postgres://postgres@127.0.0.1:5432/postgres). */
export async function createPostgresDatabase(serverUrl: string, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Unsafe database name: ${name}`);
  await withAdminClient(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropPostgresDatabase(serverUrl: string, name: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Unsafe database name: ${name}`);
  await withAdminClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/**
 * A database kept by an earlier run (BENCH_KEEP=1) next to `serverUrl`'s, with what `seeded` reads from it; one that
 * is missing gives undefined, and one `seeded` finds unfinished (it returns undefined or throws: a run interrupted
 * while seeding) is dropped, so the caller seeds afresh.
 */
export async function keptPostgresDatabase<T>(
  serverUrl: string,
  name: string,
  seeded: (client: pg.Client) => Promise<T | undefined>,
): Promise<{ url: string; seeded: T } | undefined> {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    await client.connect();
  } catch {
    return undefined;
  }
  let found: T | undefined;
  try {
    found = await seeded(client);
  } catch {
    found = undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
  if (found !== undefined) return { url: url.toString(), seeded: found };
  await dropPostgresDatabase(serverUrl, name);
  return undefined;
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
