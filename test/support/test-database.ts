import crypto from 'node:crypto';
import fs from 'node:fs';
import { inject } from 'vitest';
import { type DatabaseDriver, type DatabaseHandle, openPglite, openPostgres } from '../../src/server/db/client.ts';
import { adminConnectionUrl, withAdminClient } from './postgres-admin.ts';

/** The drivers this run tests against: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const testDrivers: DatabaseDriver[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestDatabase extends DatabaseHandle {
  /** A connection string for child processes (PostgreSQL only). */
  url: string | null;
}

/** A fresh, migrated, empty database of its own for one test file. */
export async function createTestDatabase(driver: DatabaseDriver): Promise<TestDatabase> {
  if (driver === 'pglite') {
    const snapshot = fs.readFileSync(inject('pgliteSnapshot'));
    const handle = await openPglite(undefined, new Blob([snapshot]));
    return { ...handle, url: null };
  }
  const baseUrl = process.env.TEST_DATABASE_URL;
  const template = inject('postgresTemplate');
  if (!baseUrl || !template) throw new Error('PostgreSQL tests need TEST_DATABASE_URL');
  const name = `redline_t_${inject('runId')}_${crypto.randomBytes(4).toString('hex')}`;
  await withAdminClient(baseUrl, async (admin) => {
    // Two files cloning the template at the same instant can collide; a short retry settles it.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  });
  const url = adminConnectionUrl(baseUrl, name);
  const handle = openPostgres(url, 5);
  return {
    ...handle,
    url,
    close: async () => {
      await handle.close();
      await withAdminClient(baseUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}
