import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
