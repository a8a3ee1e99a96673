import crypto from 'node:crypto';
import { and, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { type AccountTokenPurpose, accountTokens, signupRequests } from '../../db/schema.ts';

type Executor = Database | Transaction;

/** A sign-up waiting for its link, as the link's redemption reads it. */
export interface SignupRequest {
  email: string;
  displayName: string;
  passwordHash: string;
}

/** How long each kind of one-time token works. */
export const ACCOUNT_TOKEN_TTL_MS: Record<AccountTokenPurpose, number> = {
  verify_email: 48 * 3_600_000,
  reset_password: 3_600_000,
  google_code: 60_000,
};

/**
 * One-time account tokens (table `account_tokens`): 32 random bytes for the link or code, only an HMAC of it under
 * the session secret in the database. Spending is one conditional UPDATE, so a token works once even when two
 * requests race with it, and only before it expires.
 */
export class AccountTokenRepository {
  readonly #db: Database;
  readonly #secret: string;

  constructor(db: Database, secret: string) {
    this.#db = db;
    this.#secret = secret;
  }

  /** The keyed hash of a token, or of a browser-binding cookie (a different prefix: the two never collide). */
  hash(value: string, kind: 'token' | 'binding' = 'token'): string {
    return crypto.createHmac('sha256', this.#secret).update(`${kind}:${value}`).digest('hex');
  }

  /** Stores a new token for `userId` (in the caller's transaction) and answers the token itself, never stored. */
  async issue(
    db: Executor,
    input: { purpose: AccountTokenPurpose; userId: string; binding?: string; token?: string },
  ): Promise<{ token: string; expiresAt: Date }> {
    // A mail is rendered before its transaction opens, so its link's token may be chosen first and passed in.
    const token = input.token ?? crypto.randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + ACCOUNT_TOKEN_TTL_MS[input.purpose]);
    await db.insert(accountTokens).values({
      purpose: input.purpose,
      userId: input.userId,
      tokenHash: this.hash(token),
      bindingHash: input.binding === undefined ? null : this.hash(input.binding, 'binding'),
      expiresAt,
    });
    return { token, expiresAt };
  }

  /** Who a still-usable token belongs to, without spending it (to check a new password against its email first). */
  async peek(purpose: AccountTokenPurpose, token: string): Promise<{ userId: string } | null> {
    if (!plausible(token)) return null;
    const [row] = await this.#db
      .select({ userId: accountTokens.userId })
      .from(accountTokens)
      .where(this.#usable(purpose, token))
      .limit(1);
    return row ?? null;
  }

  /**
   * Spends a token: `UPDATE … SET used_at = now WHERE hash matches AND used_at IS NULL AND expires_at > now
   * [AND binding matches] RETURNING user_id`. Null for unknown, used, expired or (google_code) another browser's.
   */
  async spend(
    db: Executor,
    input: { purpose: AccountTokenPurpose; token: string; binding?: string },
  ): Promise<{ userId: string } | null> {
    if (!plausible(input.token)) return null;
    if (input.purpose === 'google_code' && !input.binding) return null;
    const [row] = await db
      .update(accountTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          this.#usable(input.purpose, input.token),
          input.binding === undefined ? undefined : eq(accountTokens.bindingHash, this.hash(input.binding, 'binding')),
        ),
      )
      .returning({ userId: accountTokens.userId });
    return row ?? null;
  }

  /**
   * Ends every still-usable token of `purpose` for `userId` (marks it used), in the caller's transaction: a new
   * password must not leave an older reset link able to set another one. Answers how many it ended.
   */
  async endAll(db: Executor, userId: string, purpose: AccountTokenPurpose): Promise<number> {
    const rows = await db
      .update(accountTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(accountTokens.userId, userId),
          eq(accountTokens.purpose, purpose),
          isNull(accountTokens.usedAt),
          gt(accountTokens.expiresAt, new Date()),
        ),
      )
      .returning({ id: accountTokens.id });
    return rows.length;
  }

  /**
   * Keeps a sign-up until its link is opened (table `signup_requests`, in the caller's transaction). An earlier
   * sign-up of the same email keeps its link: a newer one must not end the owner's own link with a stranger's.
   */
  async issueSignup(db: Executor, input: SignupRequest & { token: string }): Promise<void> {
    await db.insert(signupRequests).values({
      email: input.email,
      displayName: input.displayName,
      passwordHash: input.passwordHash,
      tokenHash: this.hash(input.token),
      expiresAt: new Date(Date.now() + ACCOUNT_TOKEN_TTL_MS.verify_email),
    });
  }

  /**
   * Spends a sign-up link (one conditional UPDATE, like `spend`) and answers what was signed up, or null for an
   * unknown, used, superseded or expired link. Every other waiting sign-up of that email ends with it.
   */
  async spendSignup(db: Executor, token: string): Promise<SignupRequest | null> {
    if (!plausible(token)) return null;
    const [found] = await db
      .select({ email: signupRequests.email })
      .from(signupRequests)
      .where(eq(signupRequests.tokenHash, this.hash(token)))
      .limit(1);
    if (!found) return null;
    // The links of one email are opened one at a time (until the transaction ends): two at once would each end the
    // other's row while holding their own, a deadlock.
    await db.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`signup:${found.email.toLowerCase()}`}::text, 0))`,
    );
    const now = new Date();
    const [row] = await db
      .update(signupRequests)
      .set({ usedAt: now })
      .where(
        and(
          eq(signupRequests.tokenHash, this.hash(token)),
          isNull(signupRequests.usedAt),
          gt(signupRequests.expiresAt, now),
        ),
      )
      .returning({
        email: signupRequests.email,
        displayName: signupRequests.displayName,
        passwordHash: signupRequests.passwordHash,
      });
    if (!row) return null;
    await db
      .update(signupRequests)
      .set({ usedAt: now })
      .where(and(this.#waitingSignupsOf(row.email), isNull(signupRequests.usedAt)));
    return row;
  }

  #waitingSignupsOf(email: string) {
    return sql`lower(${signupRequests.email}) = lower(${email})`;
  }

  #usable(purpose: AccountTokenPurpose, token: string) {
    return and(
      eq(accountTokens.tokenHash, this.hash(token)),
      eq(accountTokens.purpose, purpose),
      isNull(accountTokens.usedAt),
      gt(accountTokens.expiresAt, new Date()),
    );
  }

  /** Housekeeping: spent and expired tokens are no use to anyone after a day (kept that long for support questions). */
  async deleteSpent(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - 86_400_000);
    const rows = await this.#db
      .delete(accountTokens)
      .where(
        or(lt(accountTokens.expiresAt, cutoff), and(isNotNull(accountTokens.usedAt), lt(accountTokens.usedAt, cutoff))),
      )
      .returning({ id: accountTokens.id });
    // A waiting sign-up holds a password hash: it goes once spent or expired, after the same day.
    const signups = await this.#db
      .delete(signupRequests)
      .where(
        or(
          lt(signupRequests.expiresAt, cutoff),
          and(isNotNull(signupRequests.usedAt), lt(signupRequests.usedAt, cutoff)),
        ),
      )
      .returning({ id: signupRequests.id });
    return rows.length + signups.length;
  }
}

/** A token we issued is 43 base64url characters; anything far off is not worth a query. */
function plausible(token: string): boolean {
  return token.length >= 20 && token.length <= 200 && /^[A-Za-z0-9_-]+$/.test(token);
}
