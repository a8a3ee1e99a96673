import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../src/server/db/client.ts';
import { runMigrations } from '../src/server/db/migrate.ts';
import {
  adminConnectionUrl,
  dropDatabasesWithPrefix,
  dropStaleRunDatabases,
  withAdminClient,
} from './support/postgres-admin.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    postgresTemplate: string | null;
    runId: string;
  }
}

/**
 * Migrates once per run and hands every test file a ready copy: a PGlite data-dir snapshot (loading one takes
 * well under a second, migrating each time takes several) and, when TEST_DATABASE_URL is set, a PostgreSQL
 * template database that each file clones into a database of its own.
 */
let cleanup: (() => Promise<void>) | undefined;

export async function setup(project: TestProject) {
  // The start time and the runner's pid: unique per run and per clone, and it tells a later run whether this one
  // is still alive (see dropStaleRunDatabases).
  const runId = `r${Date.now().toString(36)}${process.pid.toString(36)}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snapshot-'));
  const snapshot = path.join(dir, 'migrated.tar');
  const url = process.env.TEST_DATABASE_URL;
  const template = url ? `redline_tpl_${runId}` : null;
  cleanup = async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (url) await dropDatabasesWithPrefix(url, `redline_t_${runId}`, template);
  };
  try {
    // Databases of earlier runs that were killed before their teardown (best effort: never fails this run).
    if (url) await dropStaleRunDatabases(url).catch(() => {});
    // Both at once: PGlite works on this core while PostgreSQL migrates on its own.
    await Promise.all([writePgliteSnapshot(snapshot), url && template ? migrateTemplate(url, template) : null]);
  } catch (error) {
    // Vitest runs no teardown after a failed setup: drop what this one made, then fail.
    await cleanup().catch(() => {});
    cleanup = undefined;
    throw error;
  }

  project.provide('pgliteSnapshot', snapshot);
  project.provide('postgresTemplate', template);
  project.provide('runId', runId);
}

export async function teardown() {
  await cleanup?.();
}

async function writePgliteSnapshot(file: string): Promise<void> {
  const pglite = await openPglite();
  try {
    await runMigrations(pglite);
    const client = (pglite.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client;
    const blob = await client.dumpDataDir('none');
    fs.writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
  } finally {
    await pglite.close();
  }
}

async function migrateTemplate(url: string, template: string): Promise<void> {
  await withAdminClient(url, (admin) => admin.query(`CREATE DATABASE "${template}"`));
  const handle = openPostgres(adminConnectionUrl(url, template), 2);
  try {
    await runMigrations(handle);
  } finally {
    await handle.close();
  }
}
