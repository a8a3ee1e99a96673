import crypto from 'node:crypto';
import { and, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, Transaction } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import type { SessionLookup, SessionUser } from '../../plugins/auth.ts';

type Executor = Database | Transaction;
const parents = alias(sessions, 'parent_session');

/**
 * Every signed-in request's one read, prepared once: Drizzle builds its SQL once instead of per request (a noticeable
 * share of a checkout's CPU), and on PostgreSQL it is a named statement each connection parses once.
 */
function prepareFindUser(db: Database) {
  return db
    .select({
      id: users.id,
      email: users.email,
      displayName: users.displayName,
      isAdmin: users.isAdmin,
      emailVerified: sql<boolean>`${users.emailVerifiedAt} is not null`,
      hasPassword: sql<boolean>`${users.passwordHash} is not null`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(parents, eq(parents.tokenHash, sessions.parentTokenHash))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
        // A child whose parent was revoked is over too, even if it was minted while the parent was signing out.
        or(isNull(sessions.parentTokenHash), isNull(parents.revokedAt)),
      ),
    )
    .limit(1)
    .prepare('session_find_user');
}

/**
 * Thin, revocable sessions: the client holds a random bearer token; the server stores only its HMAC under the
 * session secret. Looking a token up is one indexed read that also returns the user's current role, so a role
 * change counts from the very next request.
 */
export class SessionRepository implements SessionLookup {
  readonly #db: Database;
  readonly #secret: string;
  readonly #ttlMs: number;
  #findUser: ReturnType<typeof prepareFindUser> | undefined;

  constructor(db: Database, secret: string, ttlHours: number) {
    this.#db = db;
    this.#secret = secret;
    this.#ttlMs = ttlHours * 3_600_000;
  }

  hashToken(token: string): string {
    return crypto.createHmac('sha256', this.#secret).update(token).digest('hex');
  }

  async create(userId: string, db: Pick<Database, 'insert'> = this.#db): Promise<{ token: string; expiresAt: Date }> {
    const token = crypto.randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + this.#ttlMs);
    await db.insert(sessions).values({ tokenHash: this.hashToken(token), userId, expiresAt });
    return { token, expiresAt };
  }

  /**
   * M2: a fresh token for the session behind `parentToken` (PUT /api/user/{email}). It ends when its line's first
   * session ends: same absolute expiry, and revoked with it. Null when the parent is no longer valid.
   */
  async createChild(parentToken: string, userId: string): Promise<{ token: string; expiresAt: Date } | null> {
    const parentHash = this.hashToken(parentToken);
    const [parent] = await this.#db
      .select({
        tokenHash: sessions.tokenHash,
        parentTokenHash: sessions.parentTokenHash,
        expiresAt: sessions.expiresAt,
      })
      .from(sessions)
      .where(
        and(
          eq(sessions.tokenHash, parentHash),
          eq(sessions.userId, userId),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, new Date()),
        ),
      )
      .limit(1);
    if (!parent) return null;
    const token = crypto.randomBytes(32).toString('base64url');
    await this.#db.insert(sessions).values({
      tokenHash: this.hashToken(token),
      userId,
      expiresAt: parent.expiresAt,
      // Always the root: a child of a child still ends with the session that was signed in.
      parentTokenHash: parent.parentTokenHash ?? parent.tokenHash,
    });
    return { token, expiresAt: parent.expiresAt };
  }

  /** The signed-in user behind a token, or null when it (or the session it was minted from) is unknown, expired or revoked. */
  async findUser(token: string): Promise<SessionUser | null> {
    if (token.length < 20 || token.length > 200) return null;
    this.#findUser ??= prepareFindUser(this.#db);
    const rows = await this.#findUser.execute({ tokenHash: this.hashToken(token), now: new Date().toISOString() });
    const row = rows[0];
    return row ? { ...row, emailVerified: Boolean(row.emailVerified), hasPassword: Boolean(row.hasPassword) } : null;
  }

  /** Signs one token out, and every token minted from it (M2). */
  async revoke(token: string): Promise<void> {
    const hash = this.hashToken(token);
    await this.#db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(or(eq(sessions.tokenHash, hash), eq(sessions.parentTokenHash, hash)), isNull(sessions.revokedAt)));
  }

  /** Every session of a user (Sign Out Everywhere, a password reset or change, a new sign-in method linked). */
  async revokeAll(userId: string, db: Executor = this.#db, options: { keepToken?: string } = {}): Promise<number> {
    const keep = options.keepToken ? this.hashToken(options.keepToken) : undefined;
    const rows = await db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(
        and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keep ? ne(sessions.tokenHash, keep) : undefined),
      )
      .returning({ tokenHash: sessions.tokenHash });
    return rows.length;
  }

  /** Housekeeping: drops sessions that can no longer be used. */
  async deleteExpired(): Promise<void> {
    const cutoff = new Date(Date.now() - 7 * 24 * 3_600_000);
    await this.#db.delete(sessions).where(or(lt(sessions.expiresAt, new Date()), lt(sessions.revokedAt, cutoff)));
  }
}
