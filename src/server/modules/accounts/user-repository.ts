import { and, asc, count, eq, ilike, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { CursorPayload } from '../../../shared/cursor.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { type KeyColumn, keysetBeyond, keysetOrder, keysetPage, type Page, withPage } from '../../db/paging.ts';
import { profiles, users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type ProfileRow = typeof profiles.$inferSelect;
type Executor = Database | Transaction;
export type RemoveAdminOutcome = 'removed' | 'not_admin' | 'not_found' | 'last_admin';

const byEmail = (email: string) => sql`lower(${users.email}) = lower(${email.trim()})`;

/** A row of the users list. */
export type UserListRow = Pick<UserRow, 'id' | 'email' | 'displayName' | 'isAdmin'>;

/** A page of the users list: by offset, or after or before a cursor of the 'users' order. */
export interface UserPage extends Page {
  after?: CursorPayload | undefined;
  before?: CursorPayload | undefined;
}

/** A page of users, how many match, and the positions of the pages beside it. */
export interface UserListResult {
  rows: UserListRow[];
  total: number;
  next?: CursorPayload;
  prev?: CursorPayload;
}

/** Oldest account first, the id as tie-breaker, exactly as `users_created_at_idx` (created_at, id) holds it. */
const oldestFirst: KeyColumn[] = [
  { expr: sql`${users.createdAt}`, dir: 'asc', nulls: 'last' },
  { expr: sql`${users.id}`, dir: 'asc', nulls: 'last' },
];
/** `created_at` to the microsecond, as a cursor holds it (a Date has milliseconds only and would skip or repeat). */
const createdAtKey = sql<string>`to_char(${users.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
/** `text` anywhere in a column: LIKE's own characters in it match themselves. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

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

  /**
   * The users whose email or name contains `search` (any case; all without one), oldest account first: one page and
   * the count. After (or before) a cursor the page is a range of `users_created_at_idx` from its position, so a deep
   * page costs what the first does; one row more than the page is read to know whether there is another.
   */
  async list(search: string | undefined, page: UserPage = {}): Promise<UserListResult> {
    const text = search?.trim();
    const where: SQL | undefined = text
      ? or(ilike(users.email, containing(text)), ilike(users.displayName, containing(text)))
      : undefined;
    const position = page.after ?? page.before;
    const direction = page.before ? 'backward' : 'forward';
    const beyond = position
      ? keysetBeyond(oldestFirst, [sql`${position.k}::timestamptz`, sql`${position.i}::uuid`], direction)
      : undefined;
    const query = withPage(
      this.#db
        .select({
          id: users.id,
          email: users.email,
          displayName: users.displayName,
          isAdmin: users.isAdmin,
          createdAtKey,
        })
        .from(users)
        .where(and(where, beyond))
        .orderBy(...keysetOrder(oldestFirst, direction))
        .$dynamic(),
      { limit: page.limit === undefined ? undefined : page.limit + 1, offset: page.offset },
    );
    const [read, totals] = await Promise.all([query, this.#db.select({ total: count() }).from(users).where(where)]);
    const { rows, next, prev } = keysetPage(
      read,
      { limit: page.limit, direction, afterSomething: position !== undefined || (page.offset ?? 0) > 0 },
      (row): CursorPayload => ({ o: 'users', k: row.createdAtKey, i: row.id }),
    );
    return {
      rows: rows.map(({ createdAtKey: _key, ...row }) => row),
      total: totals[0]?.total ?? 0,
      ...(next ? { next } : {}),
      ...(prev ? { prev } : {}),
    };
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
