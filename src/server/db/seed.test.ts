import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../../test/support/test-database.ts';
import { verifyPassword } from '../modules/accounts/password-hasher.ts';
import { users } from './schema.ts';
import { seedDemoData } from './seed.ts';

/** The test suite's cheap scrypt: password-hasher.test.ts proves the production cost. */
const fastHash = { NODE_ENV: 'test', TEST_ONLY_FAST_PASSWORD_HASH: 'true' } as const;

describe.each(testDrivers)('seeding the demo admin [%s]', (driver) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('announces a generated password in one plain line that signs in, once', async () => {
    database = await createTestDatabase(driver);
    const warnings: string[] = [];
    const announced: string[] = [];
    const log = { info: () => {}, warn: (message: string) => void warnings.push(message) };
    const options = { announceAdminSignIn: (line: string) => void announced.push(line) };

    await seedDemoData(database.db, { ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined, ...fastHash }, log, options);
    expect(announced).toHaveLength(1);
    const password = /^Admin sign-in: admin@redline\.dev \/ (\S+) \(shown once/.exec(announced[0] ?? '')?.[1] ?? '';
    expect(announced[0]).not.toContain('\n');
    // The log record names the account but never the password: that is for the terminal only.
    expect(warnings).toEqual([expect.stringContaining('Demo admin account created: admin@redline.dev')]);
    expect(password.length).toBeGreaterThan(8);
    expect(warnings.join('\n')).not.toContain(password);
    const [admin] = await database.db.select().from(users).where(eq(users.email, 'admin@redline.dev'));
    expect(admin?.passwordHash && (await verifyPassword(password, admin.passwordHash))).toBe(true);
    // The operator chose the address: the owner is not asked to verify it.
    expect(admin?.emailVerifiedAt).toBeInstanceOf(Date);

    const again = await seedDemoData(
      database.db,
      { ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined, ...fastHash },
      log,
      options,
    );
    expect(again.seeded).toBe(false);
    expect(announced).toHaveLength(1);
  });

  it('announces nothing when ADMIN_PASSWORD chose the password', async () => {
    database = await createTestDatabase(driver);
    const announced: string[] = [];
    const messages: string[] = [];
    const log = { info: (m: string) => void messages.push(m), warn: (m: string) => void messages.push(m) };
    await seedDemoData(
      database.db,
      { ADMIN_EMAIL: 'boss@shop.com', ADMIN_PASSWORD: 'chosen-admin-password', ...fastHash },
      log,
      {
        announceAdminSignIn: (line) => void announced.push(line),
      },
    );
    expect(announced).toEqual([]);
    expect(messages.join('\n')).not.toContain('chosen-admin-password');
  });
});
