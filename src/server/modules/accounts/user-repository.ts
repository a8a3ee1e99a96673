import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { profiles, users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type ProfileRow = typeof profiles.$inferSelect;
type Executor = Database | Transaction;
export type RemoveAdminOutcome = 'removed' | 'not_admin' | 'not_found' | 'last_admin';

const byEmail = (email: string) => sql`lower(${users.email}) = lower(${email.trim()})`;

/** Data access for users and their profiles. Emails are matched without regard to case, as the unique index is. */
export class UserRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  async findByEmail(email: string, db: Executor = this.#db): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(byEmail(email)).limit(1);
    return row;
  }

  async findByGoogleSubject(subject: string): Promise<UserRow | undefined> {
    const [row] = await this.#db.select().from(users).where(eq(users.googleSubject, subject)).limit(1);
    return row;
  }

  async list(): Promise<Pick<UserRow, 'id' | 'email' | 'displayName' | 'isAdmin'>[]> {
    return this.#db
      .select({ id: users.id, email: users.email, displayName: users.displayName, isAdmin: users.isAdmin })
      .from(users)
      .orderBy(asc(users.createdAt), asc(users.id));
  }

  /** Every admin's address (the 'new paid order' mail goes to each when ORDER_NOTIFY_EMAIL is unset). */
  async adminEmails(db: Executor = this.#db): Promise<string[]> {
    const rows = await db.select({ email: users.email }).from(users).where(eq(users.isAdmin, true)).limit(50);
    return rows.map((row) => row.email);
  }

  /** Makes the user an admin; answers how many rows changed (0 when they already were one). */
  async makeAdmin(email: string): Promise<number> {
    const rows = await this.#db
      .update(users)
      .set({ isAdmin: true, updatedAt: new Date() })
      .where(and(byEmail(email), eq(users.isAdmin, false)))
      .returning({ id: users.id });
    return rows.length;
  }

  /** A password account whose email was just proven (its sign-up link was opened), in the caller's transaction. */
  async createVerified(
    db: Executor,
    input: { email: string; displayName: string; passwordHash: string },
  ): Promise<UserRow> {
    const [row] = await db
      .insert(users)
      .values({ ...input, emailVerifiedAt: new Date() })
      .returning();
    if (!row) throw new Error('user not created');
    return row;
  }

  async findById(id: string, db: Executor = this.#db): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
    return row;
  }

  /**
   * Removes admin rights, never from the last admin (L7). Every admin row is locked (in id order, so two removals
   * cannot deadlock) before counting: two concurrent removals are serialised, and the second sees the first's
   * result (PostgreSQL re-checks `is_admin` on a row it waited for), so the shop never ends with no admin.
   */
  async removeAdmin(email: string): Promise<RemoveAdminOutcome> {
    return this.#db.transaction(async (tx) => {
      const admins = await tx
        .select({ id: users.id })
        .from(users)
        .where(eq(users.isAdmin, true))
        .orderBy(asc(users.id))
        .for('update');
      const [target] = await tx.select({ id: users.id, isAdmin: users.isAdmin }).from(users).where(byEmail(email));
      if (!target) return 'not_found';
      if (!target.isAdmin) return 'not_admin';
      if (admins.length <= 1) return 'last_admin';
      await tx.update(users).set({ isAdmin: false, updatedAt: new Date() }).where(eq(users.id, target.id));
      return 'removed';
    });
  }

  /** The owner proved the address. Keeps the first proof's time. */
  async markEmailVerified(db: Executor, userId: string): Promise<void> {
    await db
      .update(users)
      .set({ emailVerifiedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)));
  }

  /** A new password (reset or change); a reset also proves the address, as its link came by mail. */
  async setPassword(db: Executor, userId: string, passwordHash: string, options: { verifyEmail: boolean }) {
    const now = new Date();
    await db
      .update(users)
      .set({
        passwordHash,
        updatedAt: now,
        ...(options.verifyEmail ? { emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now})` } : {}),
      })
      .where(eq(users.id, userId));
  }

  /** A stronger hash of the same password, written only if the password did not change meanwhile. */
  async upgradePasswordHash(userId: string, oldHash: string, newHash: string): Promise<boolean> {
    const rows = await this.#db
      .update(users)
      .set({ passwordHash: newHash })
      .where(and(eq(users.id, userId), eq(users.passwordHash, oldHash)))
      .returning({ id: users.id });
    return rows.length === 1;
  }

  /** Links a Google account to a user that has none yet; false when another one got there first. */
  async linkGoogle(userId: string, subject: string, db: Executor = this.#db): Promise<boolean> {
    const rows = await db
      .update(users)
      .set({ googleSubject: subject, updatedAt: new Date() })
      .where(and(eq(users.id, userId), isNull(users.googleSubject)))
      .returning({ id: users.id });
    return rows.length > 0;
  }

  async findProfile(userId: string): Promise<ProfileRow | undefined> {
    const [row] = await this.#db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);
    return row;
  }

  async upsertProfile(profile: Omit<ProfileRow, 'updatedAt'>): Promise<ProfileRow> {
    const values = { ...profile, updatedAt: new Date() };
    const [row] = await this.#db
      .insert(profiles)
      .values(values)
      .onConflictDoUpdate({ target: profiles.userId, set: values })
      .returning();
    if (!row) throw new Error('profile not saved');
    return row;
  }
}

/** Postgres reports a broken unique index as SQLSTATE 23505; drivers wrap it, so look through the causes. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
