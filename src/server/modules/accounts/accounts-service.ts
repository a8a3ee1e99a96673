import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { decodeCursor, encodeCursor } from '../../../shared/cursor.ts';
import { accountMessages } from '../../../shared/messages.ts';
import type {
  AuthResponse,
  ChangePasswordBody,
  LoginBody,
  Me,
  SignupBody,
  UserListItem,
  UsersQuery,
  VerifyEmailResponse,
} from '../../../shared/schemas/accounts.ts';
import type { Database, Transaction } from '../../db/client.ts';
import {
  AppError,
  BusinessRuleError,
  ConflictError,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  UnauthorizedError,
} from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import {
  accountExistsMail,
  enqueueMail,
  type MailContent,
  passwordChangedMail,
  resetPasswordMail,
  verifyEmailMail,
} from '../mail/ports.ts';
import { ACCOUNT_TOKEN_TTL_MS, type AccountTokenRepository, type SignupRequest } from './account-token-repository.ts';
import { sameEmail } from './emails.ts';
import type { PasswordHasher } from './password-hasher.ts';
import { passwordProblem } from './password-policy.ts';
import type { SessionRepository } from './session-repository.ts';
import { isUniqueViolation, type UserRepository, type UserRow } from './user-repository.ts';

export const BAD_CREDENTIALS_MESSAGE = 'Wrong email or password.';

/** The one thing accounts needs of mail delivery: "a mail was committed, send it now" (ADR 007). */
export interface MailKick {
  kick(): void;
}

/** Where the account mails' links point: the web pages that read the token from the fragment (never logged). */
export interface AccountLinks {
  verifyEmail(token: string): string;
  resetPassword(token: string): string;
  forgotPassword(): string;
  signIn(): string;
  myAccount(): string;
}

export function accountLinks(base: string): AccountLinks {
  return {
    verifyEmail: (token) => `${base}/verify-email#token=${token}`,
    resetPassword: (token) => `${base}/reset-password#token=${token}`,
    forgotPassword: () => `${base}/forgot-password`,
    signIn: () => `${base}/login`,
    myAccount: () => `${base}/dashboard/myprofile`,
  };
}

type MeSource = Pick<UserRow, 'email' | 'displayName' | 'isAdmin' | 'emailVerifiedAt' | 'passwordHash'>;

export function toMe(user: MeSource): Me {
  return {
    email: user.email,
    displayName: user.displayName,
    isAdmin: user.isAdmin,
    emailVerified: user.emailVerifiedAt !== null,
    hasPassword: user.passwordHash !== null,
  };
}

export function meOf(user: SessionUser): Me {
  return {
    email: user.email,
    displayName: user.displayName,
    isAdmin: user.isAdmin,
    emailVerified: user.emailVerified,
    hasPassword: user.hasPassword,
  };
}

const invalidLinkToken = () => new AppError(400, 'invalid_token', accountMessages.invalidLinkToken);

/** A password the rules refuse, answered like a validation error of that field. */
function passwordRefused(field: string, problem: string): InvalidError {
  return new InvalidError(problem, [{ path: `body.${field}`, message: problem }]);
}

interface AccountsDependencies {
  db: Database;
  users: UserRepository;
  sessions: SessionRepository;
  tokens: AccountTokenRepository;
  hasher: PasswordHasher;
  mail: MailKick;
  links: AccountLinks;
  log: FastifyBaseLogger;
}

/** A page of the users list on the wire: the users, how many match, the cursors of the pages beside it. */
export interface UserListPage {
  items: UserListItem[];
  total: number;
  nextCursor: string | null;
  prevCursor: string | null;
}

/**
 * Sign-up, sign-in, tokens, roles, email verification and passwords. Identity always comes from a proven sign-in
 * (or a mailed one-time link), never from what a client names. Every mail is rendered first, then written to the
 * outbox in the same transaction as the change that causes it, and delivery is kicked after the commit.
 */
export class AccountsService {
  readonly #db: Database;
  readonly #users: UserRepository;
  readonly #sessions: SessionRepository;
  readonly #tokens: AccountTokenRepository;
  readonly #hasher: PasswordHasher;
  readonly #mail: MailKick;
  readonly #links: AccountLinks;
  readonly #log: FastifyBaseLogger;
  /** Forgot-password work still running after its answer was sent (awaited on close and by tests). */
  readonly #background = new Set<Promise<void>>();

  constructor(deps: AccountsDependencies) {
    this.#db = deps.db;
    this.#users = deps.users;
    this.#sessions = deps.sessions;
    this.#tokens = deps.tokens;
    this.#hasher = deps.hasher;
    this.#mail = deps.mail;
    this.#links = deps.links;
    this.#log = deps.log;
  }

  /**
   * POST /api/signup. The answer is the same sentence whether or not the email has an account, after the same work
   * (a password hash, a mail rendered and written), so neither it nor its timing tells which emails are registered.
   * A new email gets a link that creates the account when opened (`verifyEmail`); nothing is an account before. A
   * registered one gets a mail to its owner and nothing changes. `mayMail` false (too many mails to this address
   * lately) sends neither and keeps nothing, with the same answer.
   */
  async signUp(body: SignupBody, mayMail = true): Promise<{ message: string }> {
    const email = body.email.trim();
    const problem = passwordProblem(body.password, email, body.name);
    if (problem) throw passwordRefused('password', problem);
    const displayName = body.name.trim();
    const existing = await this.#users.findByEmail(email);
    // Hashed either way (the timing must not differ) and outside the transaction, which must stay short.
    const passwordHash = await this.#hasher.hash(body.password);
    const token = newToken();
    const mail = existing
      ? await accountExistsMail({
          name: existing.displayName,
          signInUrl: this.#links.signIn(),
          resetUrl: this.#links.forgotPassword(),
        })
      : await verifyEmailMail({
          name: displayName,
          verifyUrl: this.#links.verifyEmail(token),
          validForHours: ACCOUNT_TOKEN_TTL_MS.verify_email / 3_600_000,
        });
    if (mayMail) {
      await this.#db.transaction(async (tx) => {
        if (existing) {
          await enqueueMail(tx, { kind: 'account-exists', to: existing.email, ...mail });
          return;
        }
        await this.#tokens.issueSignup(tx, { email, displayName, passwordHash, token });
        await enqueueMail(tx, { kind: 'verify-email', to: email, ...mail });
      });
      this.#mail.kick();
    }
    return { message: accountMessages.signupCheckEmail };
  }

  /**
   * Unknown email, Google-only account and wrong password all answer the same sentence after the same scrypt
   * work, so neither the message nor the timing tells which emails are registered. Returns null on failure so
   * the caller can count the failure. A hash made with weaker parameters is upgraded after a success.
   */
  async logIn(body: LoginBody): Promise<AuthResponse | null> {
    const user = await this.#users.findByEmail(body.email);
    const hash = user?.passwordHash ?? (await this.#hasher.dummyHash());
    const matches = await this.#hasher.verify(body.password, hash);
    if (!user?.passwordHash || !matches) return null;
    if (this.#hasher.needsRehash(user.passwordHash)) {
      const stronger = await this.#hasher.hash(body.password);
      await this.#users.upgradePasswordHash(user.id, user.passwordHash, stronger);
    }
    return this.openSession(user);
  }

  async openSession(user: UserRow, db?: Transaction): Promise<AuthResponse> {
    const session = await this.#sessions.create(user.id, db);
    return { token: session.token, expiresAt: session.expiresAt.toISOString(), user: toMe(user) };
  }

  /**
   * PUT /user/{email}: a fresh token, only for the caller's own email (design: no token for a named email). M2: it
   * inherits the calling session's absolute expiry and is revoked with it.
   */
  async freshToken(
    caller: SessionUser,
    email: string,
    callerToken: string | null,
  ): Promise<{ token: string; expiresAt: string }> {
    if (!sameEmail(caller.email, email)) throw new ForbiddenError('You can only get a token for your own account.');
    const session = callerToken ? await this.#sessions.createChild(callerToken, caller.id) : null;
    if (!session) throw new UnauthorizedError('Your session has ended. Please sign in again.', 'invalid_token');
    return { token: session.token, expiresAt: session.expiresAt.toISOString() };
  }

  async adminCheck(caller: SessionUser, email: string): Promise<{ admin: boolean }> {
    if (sameEmail(caller.email, email)) return { admin: caller.isAdmin };
    if (!caller.isAdmin) throw new ForbiddenError('You can only check your own role.');
    const user = await this.#users.findByEmail(email);
    if (!user) throw new NotFoundError('No user has this email.');
    return { admin: user.isAdmin };
  }

  /** The users list (admin): a search over email and name, one page, the count and the cursors beside it. */
  async listUsers(query: UsersQuery = {}): Promise<UserListPage> {
    // The query schema has already checked the cursors: each decodes to a position of the users order.
    const position = (text: string | undefined) => (text === undefined ? undefined : decodeCursor(text));
    const result = await this.#users.list(query.q, {
      limit: query.limit,
      offset: query.offset,
      after: position(query.after),
      before: position(query.before),
    });
    return {
      items: result.rows.map((row) => ({
        _id: row.id,
        email: row.email,
        displayName: row.displayName,
        admin: row.isAdmin,
      })),
      total: result.total,
      nextCursor: result.next ? encodeCursor(result.next) : null,
      prevCursor: result.prev ? encodeCursor(result.prev) : null,
    };
  }

  async makeAdmin(email: string): Promise<{ modifiedCount: number }> {
    const modifiedCount = await this.#users.makeAdmin(email);
    if (modifiedCount === 0 && !(await this.#users.findByEmail(email)))
      throw new NotFoundError('No user has this email.');
    return { modifiedCount };
  }

  /** L7: admin rights removed from an admin (any admin, the caller too), never from the last one. */
  async removeAdmin(email: string): Promise<{ modifiedCount: number }> {
    const outcome = await this.#users.removeAdmin(email);
    if (outcome === 'not_found') throw new NotFoundError('No user has this email.');
    if (outcome === 'last_admin') throw new ConflictError(accountMessages.lastAdmin, 'last_admin');
    return { modifiedCount: outcome === 'removed' ? 1 : 0 };
  }

  /**
   * POST /api/email/verify: the mailed link proves the address. No sign-in needed (another browser may open it). A
   * sign-up's link creates its account, verified, and signs the opener in; if the email got an account meanwhile
   * (Google, or another of its links), 409. A link of an account created before sign-ups waited only verifies it.
   */
  async verifyEmail(token: string): Promise<VerifyEmailResponse> {
    let outcome: VerifyEmailResponse | 'taken' | null;
    try {
      outcome = await this.#db.transaction(async (tx) => {
        const signup = await this.#tokens.spendSignup(tx, token);
        if (signup) return this.#finishSignUp(tx, signup);
        const spent = await this.#tokens.spend(tx, { purpose: 'verify_email', token });
        if (!spent) return null;
        await this.#users.markEmailVerified(tx, spent.userId);
        const email = (await this.#users.findById(spent.userId, tx))?.email;
        return email ? { email, emailVerified: true as const } : null;
      });
    } catch (error) {
      // The same email's account was created at the same moment (Google, another link): the unique index decides.
      if (!isUniqueViolation(error)) throw error;
      outcome = 'taken';
    }
    if (outcome === 'taken') throw new ConflictError(accountMessages.signupAccountExists, 'email_taken');
    if (!outcome) throw invalidLinkToken();
    return outcome;
  }

  async #finishSignUp(tx: Transaction, signup: SignupRequest): Promise<VerifyEmailResponse | 'taken'> {
    if (await this.#users.findByEmail(signup.email, tx)) return 'taken';
    const row = await this.#users.createVerified(tx, {
      email: signup.email,
      displayName: signup.displayName,
      passwordHash: signup.passwordHash,
    });
    const auth = await this.openSession(row, tx);
    return { email: row.email, emailVerified: true, ...auth };
  }

  /** POST /api/email/verify/resend: a new link (older ones keep working until they expire). */
  async resendVerification(caller: SessionUser): Promise<{ message: string }> {
    const user = await this.#users.findById(caller.id);
    if (!user) throw new UnauthorizedError();
    if (user.emailVerifiedAt) throw new ConflictError(accountMessages.alreadyVerified, 'already_verified');
    const token = newToken();
    const mail = await verifyEmailMail({
      name: user.displayName,
      verifyUrl: this.#links.verifyEmail(token),
      validForHours: ACCOUNT_TOKEN_TTL_MS.verify_email / 3_600_000,
    });
    await this.#db.transaction(async (tx) => {
      await this.#tokens.issue(tx, { purpose: 'verify_email', userId: user.id, token });
      await enqueueMail(tx, { kind: 'verify-email', to: user.email, ...mail });
    });
    this.#mail.kick();
    return { message: accountMessages.verificationResent };
  }

  /**
   * POST /api/password/forgot. The answer is sent before any of this runs, and is the same for every email: what
   * happens here (a token and a mail when the account exists, nothing otherwise) cannot show in it or its timing.
   */
  requestPasswordReset(email: string): void {
    const work = this.#sendResetLink(email.trim())
      .catch((error: unknown) => this.#log.error({ err: error }, 'password reset mail not written'))
      .finally(() => this.#background.delete(work));
    this.#background.add(work);
  }

  async #sendResetLink(email: string): Promise<void> {
    // Yield first, so the 202 is on its way before the lookup starts.
    await new Promise((resolve) => setImmediate(resolve));
    const user = await this.#users.findByEmail(email);
    const token = newToken();
    const mail = await resetPasswordMail({ name: user?.displayName ?? '', resetUrl: this.#links.resetPassword(token) });
    if (!user) return;
    await this.#db.transaction(async (tx) => {
      await this.#tokens.issue(tx, { purpose: 'reset_password', userId: user.id, token });
      await enqueueMail(tx, { kind: 'reset-password', to: user.email, ...mail });
    });
    this.#mail.kick();
  }

  /** Resolves when every forgot-password request answered so far has done its work. */
  async settled(): Promise<void> {
    while (this.#background.size > 0) await Promise.allSettled([...this.#background]);
  }

  /**
   * POST /api/password/reset: a mailed link sets a new password. Every session of the account is revoked, the email
   * counts as verified (the mail reached its owner) and a "your password was changed" mail goes out.
   */
  async resetPassword(token: string, password: string): Promise<{ message: string }> {
    const holder = await this.#tokens.peek('reset_password', token);
    const user = holder ? await this.#users.findById(holder.userId) : undefined;
    if (!user) throw invalidLinkToken();
    // The rules before spending the link: a refused password leaves the link usable for a better one.
    const problem = passwordProblem(password, user.email, user.displayName);
    if (problem) throw passwordRefused('password', problem);
    const passwordHash = await this.#hasher.hash(password);
    const mail = await this.#passwordChangedMail(user);
    const done = await this.#db.transaction(async (tx) => {
      const spent = await this.#tokens.spend(tx, { purpose: 'reset_password', token });
      if (!spent || spent.userId !== user.id) return false;
      await this.#users.setPassword(tx, user.id, passwordHash, { verifyEmail: true });
      // Other links of the same account (asked for twice, or mailed before) must not set yet another password.
      await this.#tokens.endAll(tx, user.id, 'reset_password');
      await this.#sessions.revokeAll(user.id, tx);
      await enqueueMail(tx, { kind: 'password-changed', to: user.email, ...mail });
      return true;
    });
    if (!done) throw invalidLinkToken();
    this.#mail.kick();
    return { message: accountMessages.passwordReset };
  }

  /**
   * POST /api/password/change: the current password proves the person at the keyboard is the owner. Every session
   * of the account ends, the caller's too, and the caller gets a new one. Answers null for a wrong current password
   * (the route counts it against the account) and throws for the rest.
   */
  async changePassword(caller: SessionUser, body: ChangePasswordBody): Promise<AuthResponse | null> {
    const user = await this.#users.findById(caller.id);
    if (!user) throw new UnauthorizedError();
    if (!user.passwordHash) throw new ConflictError(accountMessages.noPassword, 'no_password');
    if (!(await this.#hasher.verify(body.currentPassword, user.passwordHash))) return null;
    const problem = passwordProblem(body.newPassword, user.email, user.displayName);
    if (problem) throw passwordRefused('newPassword', problem);
    const passwordHash = await this.#hasher.hash(body.newPassword);
    const mail = await this.#passwordChangedMail(user);
    const result = await this.#db.transaction(async (tx) => {
      await this.#users.setPassword(tx, user.id, passwordHash, { verifyEmail: false });
      // A reset link mailed before the change would undo it: the owner chose this password knowingly.
      await this.#tokens.endAll(tx, user.id, 'reset_password');
      await this.#sessions.revokeAll(user.id, tx);
      await enqueueMail(tx, { kind: 'password-changed', to: user.email, ...mail });
      return this.openSession({ ...user, passwordHash }, tx);
    });
    this.#mail.kick();
    return result;
  }

  /** POST /api/logout/everywhere: every session of the caller's account ends (Sign Out Everywhere). */
  async logOutEverywhere(caller: SessionUser): Promise<void> {
    await this.#sessions.revokeAll(caller.id);
  }

  #passwordChangedMail(user: UserRow): Promise<MailContent> {
    return passwordChangedMail({
      name: user.displayName,
      changedAt: new Date(),
      resetUrl: this.#links.forgotPassword(),
    });
  }
}

export function badCredentials(): UnauthorizedError {
  return new UnauthorizedError(BAD_CREDENTIALS_MESSAGE, 'bad_credentials');
}

export function wrongCurrentPassword(): BusinessRuleError {
  return new BusinessRuleError('wrong_password', accountMessages.wrongPassword);
}

/** 32 random bytes, base64url: a mailed link's token. */
function newToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}
