import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { type AppConfig, loadConfig } from '../../src/server/config.ts';
import type { DatabaseDriver } from '../../src/server/db/client.ts';
import { users } from '../../src/server/db/schema.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from './test-database.ts';

export interface TestContext {
  driver: DatabaseDriver;
  app: FastifyInstance;
  database: TestDatabase;
  config: AppConfig;
}

export const TEST_SESSION_SECRET = 'test-session-secret-that-is-long-enough-0123456789';

/** Config as the test environment sees it, with overrides (e.g. `{ GOOGLE_CLIENT_ID: … }`). */
export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/nonexistent-test-data-dir',
    STATIC_DIR: '/nonexistent-static-dir',
    // Uploaded photos go under the run's temporary directory (TMPDIR, removed after the run).
    UPLOADS_DIR: path.join(os.tmpdir(), `redline-uploads-${process.pid}`),
    SESSION_SECRET: TEST_SESSION_SECRET,
    // No pg-boss and no mail delivery unless a test asks (JOBS_ENABLED=true, with SMTP_URL of its SMTP server).
    JOBS_ENABLED: 'false',
    // scrypt N=2^10 instead of production's 2^17: hundreds of sign-ups per file (password-hasher.test.ts proves the
    // production default). Refused by config.ts outside NODE_ENV=test.
    TEST_ONLY_FAST_PASSWORD_HASH: 'true',
    // No growing wait on an account that keeps failing; the M3 tests turn it on.
    RATE_LIMIT_LOGIN_DELAY_MAX_MS: '0',
    // A busy test machine (two cores, two files at a time) is not an overloaded shop: no load shedding unless a
    // test asks for it.
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    LOAD_SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
    // Every test user is a new account (no paid order) placing from one address (inject's 127.0.0.1), most of them
    // unverified: the caps on what unpaid orders hold across accounts are off unless a test asks for them
    // (holds-across-accounts.test.ts proves the production defaults). The per-customer hold limit stays on.
    ORDER_UNVERIFIED_HOLD_LIMIT: 'off',
    ORDER_ADDRESS_HOLD_LIMIT: 'off',
    ORDER_NEW_ACCOUNT_HOLD_PERCENT: 'off',
    ...overrides,
  });
}

/** The real app on a fresh database of the given driver. */
export async function createTestApp(
  driver: DatabaseDriver,
  overrides: Record<string, string> = {},
): Promise<TestContext> {
  const database = await createTestDatabase(driver);
  const config = testConfig(overrides);
  const app = await buildApp({
    config,
    database,
    sessionSecret: config.SESSION_SECRET ?? TEST_SESSION_SECRET,
    // TEST_LOG_LEVEL=warn npx vitest run … prints the app's log lines while a test is debugged.
    logger: process.env.TEST_LOG_LEVEL ? { level: process.env.TEST_LOG_LEVEL } : false,
  });
  await app.ready();
  return { driver, app, database, config };
}

/**
 * Waits until the app has heard every catalogue notification committed so far. A test that writes straight to the
 * database (SQL, not through the app) calls it before its next read: on PostgreSQL the notification reaches the read
 * cache (ADRs 016, 026) a moment after the commit, and a read before then may get the answer kept from before the
 * write. Writes through the app need nothing: their answers already wait for this.
 */
export async function heardDirectWrites(app: FastifyInstance): Promise<void> {
  await app.catalogCache?.caughtUp();
}

/**
 * Runs a suite once per database driver, each with its own app and database:
 * `describeEachDatabase('orders', (ctx) => { it('…', async () => { ctx().app.inject(…) }) })`.
 */
export function describeEachDatabase(
  name: string,
  suite: (context: () => TestContext) => void,
  overrides: Record<string, string> = {},
): void {
  describe.each(testDrivers)(`${name} [%s]`, (driver) => {
    let context: TestContext | undefined;
    beforeAll(async () => {
      context = await createTestApp(driver, overrides);
    });
    afterAll(async () => {
      await context?.app.close();
      await context?.database.close();
    });
    suite(() => {
      if (!context) throw new Error('test app not ready');
      return context;
    });
  });
}

let userCounter = 0;

export interface TestUser {
  id: string;
  email: string;
  displayName: string;
  isAdmin: boolean;
  token: string;
  /** `{ authorization: 'Bearer …' }` for inject. */
  headers: { authorization: string };
}

/** Inserts a user directly (no password) and opens a session for them. */
export async function createUser(
  context: TestContext,
  options: { admin?: boolean; email?: string; displayName?: string; verified?: boolean } = {},
): Promise<TestUser> {
  userCounter += 1;
  const email = options.email ?? `user${userCounter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const displayName = options.displayName ?? `Test User ${userCounter}`;
  const [row] = await context.database.db
    .insert(users)
    .values({
      email,
      displayName,
      isAdmin: options.admin ?? false,
      emailVerifiedAt: options.verified ? new Date() : null,
    })
    .returning({ id: users.id });
  if (!row) throw new Error('user not created');
  const { token } = await context.app.sessions.create(row.id);
  return {
    id: row.id,
    email,
    displayName,
    isAdmin: options.admin ?? false,
    token,
    headers: { authorization: `Bearer ${token}` },
  };
}
