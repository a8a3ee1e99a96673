import crypto from 'node:crypto';
import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import type { SessionLookup, SessionUser } from '../../plugins/auth.ts';

/**
 * Thin, revocable sessions: the client holds a random bearer token; the server stores only its HMAC under the
 * session secret. Looking a token up is one indexed read that also returns the user's current role, so a role
 * change counts from the very next request.
 */
export class SessionRepository implements SessionLookup {
  readonly #db: Database;
  readonly #secret: string;
  readonly #ttlMs: number;

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

  /** The signed-in user behind a token, or null when it is unknown, expired or revoked. */
  async findUser(token: string): Promise<SessionUser | null> {
    if (token.length < 20 || token.length > 200) return null;
    const rows = await this.#db
      .select({ id: users.id, email: users.email, displayName: users.displayName, isAdmin: users.isAdmin })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.tokenHash, this.hashToken(token)),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, new Date()),
        ),
      )
      .limit(1);
    return rows[0] ?? null;
  }

  async revoke(token: string): Promise<void> {
    await this.#db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.tokenHash, this.hashToken(token)), isNull(sessions.revokedAt)));
  }

  /** Housekeeping: drops sessions that can no longer be used. */
  async deleteExpired(): Promise<void> {
    const cutoff = new Date(Date.now() - 7 * 24 * 3_600_000);
    await this.#db.delete(sessions).where(or(lt(sessions.expiresAt, new Date()), lt(sessions.revokedAt, cutoff)));
  }
}
