import type { AuthResponse, LoginBody, Me, SignupBody, UserListItem } from '../../../shared/schemas/accounts.ts';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { sameEmail } from './emails.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password-hasher.ts';
import type { SessionRepository } from './session-repository.ts';
import { isUniqueViolation, type UserRepository, type UserRow } from './user-repository.ts';

export const DUPLICATE_EMAIL_MESSAGE = 'An account with this email already exists. Please log in instead.';
export const BAD_CREDENTIALS_MESSAGE = 'Wrong email or password.';

function toMe(user: Pick<UserRow, 'email' | 'displayName' | 'isAdmin'>): Me {
  return { email: user.email, displayName: user.displayName, isAdmin: user.isAdmin };
}

/** Sign-up, sign-in, tokens and roles. Identity always comes from a proven sign-in, never from what a client names. */
export class AccountsService {
  readonly #db: Database;
  readonly #users: UserRepository;
  readonly #sessions: SessionRepository;

  constructor(db: Database, users: UserRepository, sessions: SessionRepository) {
    this.#db = db;
    this.#users = users;
    this.#sessions = sessions;
  }

  async signUp(body: SignupBody): Promise<AuthResponse> {
    const email = body.email.trim();
    // A cheap early answer for the common case; the unique index settles the race between two sign-ups.
    if (await this.#users.findByEmail(email)) throw new ConflictError(DUPLICATE_EMAIL_MESSAGE, 'email_taken');
    // Hash outside the transaction: a transaction must stay short.
    const passwordHash = await hashPassword(body.password);
    try {
      return await this.#db.transaction(async (tx) => {
        const [row] = await tx
          .insert(users)
          .values({ email, displayName: body.name.trim(), passwordHash })
          .returning({ id: users.id, email: users.email, displayName: users.displayName, isAdmin: users.isAdmin });
        if (!row) throw new Error('user not created');
        const session = await this.#sessions.create(row.id, tx);
        return { token: session.token, expiresAt: session.expiresAt.toISOString(), user: toMe(row) };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(DUPLICATE_EMAIL_MESSAGE, 'email_taken');
      throw error;
    }
  }

  /**
   * Unknown email, Google-only account and wrong password all answer the same sentence after the same scrypt
   * work, so neither the message nor the timing tells which emails are registered. Returns null on failure so
   * the caller can count the failure against the account.
   */
  async logIn(body: LoginBody): Promise<AuthResponse | null> {
    const user = await this.#users.findByEmail(body.email);
    const hash = user?.passwordHash ?? (await dummyPasswordHash());
    const matches = await verifyPassword(body.password, hash);
    if (!user?.passwordHash || !matches) return null;
    return this.openSession(user);
  }

  async openSession(user: Pick<UserRow, 'id' | 'email' | 'displayName' | 'isAdmin'>): Promise<AuthResponse> {
    const session = await this.#sessions.create(user.id);
    return { token: session.token, expiresAt: session.expiresAt.toISOString(), user: toMe(user) };
  }

  /** PUT /user/{email}: a fresh token, only for the caller's own email (design: no token for a named email). */
  async freshToken(caller: SessionUser, email: string): Promise<{ token: string; expiresAt: string }> {
    if (!sameEmail(caller.email, email)) throw new ForbiddenError('You can only get a token for your own account.');
    const session = await this.#sessions.create(caller.id);
    return { token: session.token, expiresAt: session.expiresAt.toISOString() };
  }

  async adminCheck(caller: SessionUser, email: string): Promise<{ admin: boolean }> {
    if (sameEmail(caller.email, email)) return { admin: caller.isAdmin };
    if (!caller.isAdmin) throw new ForbiddenError('You can only check your own role.');
    const user = await this.#users.findByEmail(email);
    if (!user) throw new NotFoundError('No user has this email.');
    return { admin: user.isAdmin };
  }

  async listUsers(): Promise<UserListItem[]> {
    const rows = await this.#users.list();
    return rows.map((row) => ({ _id: row.id, email: row.email, displayName: row.displayName, admin: row.isAdmin }));
  }

  async makeAdmin(email: string): Promise<{ modifiedCount: number }> {
    const modifiedCount = await this.#users.makeAdmin(email);
    if (modifiedCount === 0 && !(await this.#users.findByEmail(email)))
      throw new NotFoundError('No user has this email.');
    return { modifiedCount };
  }
}

export function badCredentials(): UnauthorizedError {
  return new UnauthorizedError(BAD_CREDENTIALS_MESSAGE, 'bad_credentials');
}
