import crypto from 'node:crypto';
import { count, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type AppConfig, DEFAULT_ADMIN_EMAIL } from '../config.ts';
import { hashPassword, passwordHashParams } from '../modules/accounts/password-hasher.ts';
import type { Database } from './client.ts';
import { parts, reviews, users } from './schema.ts';
import { seedParts, seedReviews } from './seed-data.ts';
import { seedFitment } from './seed-fitment.ts';

type SeedLogger = Pick<FastifyBaseLogger, 'info' | 'warn'>;

export interface SeedOptions {
  /**
   * Receives the generated admin's sign-in as one plain line, the only place the password is ever shown (the log
   * record says only that it was printed). Never called with ADMIN_PASSWORD.
   */
  announceAdminSignIn?: (line: string) => void;
}

/** Any fixed number (not the migrations' one): the advisory lock that lets one of several starting instances seed. */
const SEED_LOCK_KEY = 72_535_278;

/**
 * Fills an empty database with the demo catalogue, reviews and one admin. Idempotent: a database that already
 * holds any user or part is left exactly as it is.
 */
export async function seedDemoData(
  db: Database,
  config: Pick<AppConfig, 'ADMIN_EMAIL' | 'ADMIN_PASSWORD'> &
    Partial<Pick<AppConfig, 'NODE_ENV' | 'TEST_ONLY_FAST_PASSWORD_HASH'>>,
  log: SeedLogger,
  options: SeedOptions = {},
): Promise<{ seeded: boolean }> {
  const [userCount] = await db.select({ n: count() }).from(users);
  const [partCount] = await db.select({ n: count() }).from(parts);
  if ((userCount?.n ?? 0) > 0 || (partCount?.n ?? 0) > 0) return { seeded: false };

  const adminEmail = config.ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL;
  const generated = !config.ADMIN_PASSWORD;
  const adminPassword = config.ADMIN_PASSWORD ?? crypto.randomBytes(12).toString('base64url');
  // Hash before the transaction: a transaction must stay short (on PGlite it blocks every other query).
  const passwordHash = await hashPassword(adminPassword, passwordHashParams(config));
  const now = Date.now();
  let vehicleCount = 0;

  const seeded = await db.transaction(async (tx) => {
    // Several instances may start at once on one empty database: one seeds while the others wait on the lock,
    // then find the data and leave it alone (instead of failing on the admin's unique email).
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    const [usersNow] = await tx.select({ n: count() }).from(users);
    const [partsNow] = await tx.select({ n: count() }).from(parts);
    if ((usersNow?.n ?? 0) > 0 || (partsNow?.n ?? 0) > 0) return false;
    // The operator chose this address (ADMIN_EMAIL, or the documented demo one): it counts as proven, so the owner
    // is not asked to verify an address that, on the demo, only reaches .eml files.
    await tx.insert(users).values({
      email: adminEmail,
      displayName: 'Shop Admin',
      passwordHash,
      isAdmin: true,
      emailVerifiedAt: new Date(),
    });
    const partRows = await tx
      .insert(parts)
      .values(
        seedParts.map((part, index) => ({
          ...part,
          createdByEmail: adminEmail,
          // Spread the creation times so "newest first" has a stable, meaningful order.
          createdAt: new Date(now - (seedParts.length - index) * 60_000),
        })),
      )
      .returning({ id: parts.id, name: parts.name });
    // Demo vehicles, brands, part numbers and fitment.
    vehicleCount = await seedFitment(tx, new Map(partRows.map((row) => [row.name, row.id])));
    await tx
      .insert(reviews)
      .values(
        seedReviews.map((r, index) => ({ ...r, createdAt: new Date(now - (seedReviews.length - index) * 60_000) })),
      );
    return true;
  });
  if (!seeded) return { seeded: false };

  log.info(
    `Seeded the demo catalogue: ${seedParts.length} parts, ${seedReviews.length} reviews, ${vehicleCount} vehicles.`,
  );
  if (generated) {
    // The password goes to the terminal once and never into the structured log: log records are shipped, kept and
    // read by others, and a password in them is a password handed out. It is never stored in clear anywhere.
    log.warn(
      `Demo admin account created: ${adminEmail} (its generated password is printed once to the terminal, not to ` +
        'the log; set ADMIN_PASSWORD to choose it).',
    );
    options.announceAdminSignIn?.(
      `Admin sign-in: ${adminEmail} / ${adminPassword} (shown once and stored only as a hash: note it now)`,
    );
  } else {
    log.info(`Admin account created: ${adminEmail} (password from ADMIN_PASSWORD).`);
  }
  return { seeded: true };
}
