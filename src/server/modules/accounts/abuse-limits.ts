import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config.ts';
import { AppError } from '../../errors.ts';

type LimitConfig = Pick<
  AppConfig,
  | 'RATE_LIMIT_WINDOW_SECONDS'
  | 'RATE_LIMIT_LOGIN_PER_IP'
  | 'RATE_LIMIT_LOGIN_PER_ACCOUNT'
  | 'RATE_LIMIT_SIGNUP_PER_IP'
  | 'RATE_LIMIT_SIGNUP_PER_ACCOUNT'
  | 'RATE_LIMIT_NAMESPACE'
  | 'RATE_LIMIT_LOGIN_DELAY_MAX_MS'
  | 'RATE_LIMIT_PASSWORD_RESET_PER_IP'
  | 'RATE_LIMIT_PASSWORD_RESET_PER_EMAIL'
  | 'RATE_LIMIT_VERIFY_RESEND_PER_ACCOUNT'
>;

/** What a refused sign-in carries (M3): the way back in that no limit blocks, for the web to link to. */
export const LOGIN_LIMIT_DETAILS = [{ resetPasswordPath: '/forgot-password' }];

class RateLimitedError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, details?: unknown[]) {
    const wait =
      retryAfterSeconds > 90 ? `${Math.ceil(retryAfterSeconds / 60)} minutes` : `${retryAfterSeconds} seconds`;
    super(429, 'rate_limited', `Too many attempts. Please try again in ${wait}.`, details);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * One counter of @fastify/rate-limit (in memory, or in Redis when REDIS_URL is set, so every instance shares it).
 * `hit` counts an attempt and refuses past the limit; `check` only looks, for limits that count failures alone.
 */
class Limiter {
  readonly #limit: ReturnType<FastifyInstance['createRateLimit']>;
  readonly #max: number;
  readonly #log: FastifyInstance['log'];
  readonly #details: unknown[] | undefined;

  constructor(
    app: FastifyInstance,
    name: string,
    max: number,
    windowMs: number,
    namespace: string,
    keyOf: (request: FastifyRequest) => string,
    details?: unknown[],
  ) {
    this.#max = max;
    this.#log = app.log;
    this.#details = details;
    this.#limit = app.createRateLimit({
      max,
      timeWindow: windowMs,
      keyGenerator: (request) => `${namespace}${name}:${keyOf(request)}`,
    });
  }

  // Arrow functions, so a route can name them as its preHandler as they are.
  readonly hit = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const result = await this.#run(request, true);
    if (result && !result.isAllowed && result.isExceeded) refuse(reply, result.ttlInSeconds, this.#details);
  };

  readonly check = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const result = await this.#run(request, false);
    if (result && !result.isAllowed && result.remaining <= 0 && result.ttl > 0) {
      refuse(reply, result.ttlInSeconds, this.#details);
    }
  };

  /** How many times this request's key was counted in the current window (0 when the store is down). */
  async count(request: FastifyRequest): Promise<number> {
    const result = await this.#run(request, false);
    return result && !result.isAllowed ? this.#max - result.remaining : 0;
  }

  async #run(request: FastifyRequest, increment: boolean) {
    try {
      return await this.#limit(request, { increment });
    } catch (error) {
      // The shared store is down: keep signing people in (scrypt still slows guessing) and say so in the log.
      this.#log.warn({ err: error, max: this.#max }, 'rate-limit store unavailable; request allowed');
      return undefined;
    }
  }
}

function refuse(reply: FastifyReply, seconds: number, details?: unknown[]): never {
  const retryAfter = Math.max(1, seconds);
  reply.header('retry-after', String(retryAfter));
  throw new RateLimitedError(retryAfter, details);
}

function bodyEmail(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

interface AbuseLimits {
  /** Every sign-in attempt from one address, whatever the account. */
  loginPerIp: Limiter;
  /**
   * Failed sign-ins from one address on one account (M3). There is no lock per account alone: that let anyone lock
   * the admin out with ten wrong passwords. A correct password is refused only from the address that kept failing.
   */
  loginPerAddressAccount: Limiter;
  /** Failed sign-ins on one account from anywhere: never refuses, only slows (`loginDelayMs`). */
  loginFailuresPerAccount: Limiter;
  /** The wait before answering a sign-in to this account: grows with its failures, capped (M3). */
  loginDelayMs(request: FastifyRequest): Promise<number>;
  signupPerIp: Limiter;
  signupPerAccount: Limiter;
  googlePerIp: Limiter;
  /** Redeeming mailed links and Google codes, per address: 256-bit tokens cannot be guessed, but nobody may try. */
  tokensPerIp: Limiter;
  passwordResetPerIp: Limiter;
  passwordResetPerEmail: Limiter;
  verifyResendPerAccount: Limiter;
  /** Wrong current passwords on Change Password, per signed-in account (a stolen session must not guess). */
  passwordChangePerAccount: Limiter;
}

/** Failures on an account before any delay, and how the delay grows after them: 1/16 of the cap, doubling. */
const FREE_FAILURES = 3;

export function createAbuseLimits(app: FastifyInstance, config: LimitConfig): AbuseLimits {
  const windowMs = config.RATE_LIMIT_WINDOW_SECONDS * 1000;
  const ns = config.RATE_LIMIT_NAMESPACE;
  const ip = (request: FastifyRequest) => request.ip;
  const ipAndEmail = (request: FastifyRequest) => `${request.ip}|${bodyEmail(request)}`;
  const userId = (request: FastifyRequest) => request.user?.id ?? `anonymous:${request.ip}`;
  const login = LOGIN_LIMIT_DETAILS;
  const failuresPerAccount = new Limiter(app, 'login-account-failures', 1_000_000, windowMs, ns, bodyEmail);
  const maxDelay = config.RATE_LIMIT_LOGIN_DELAY_MAX_MS;
  return {
    loginPerIp: new Limiter(app, 'login-ip', config.RATE_LIMIT_LOGIN_PER_IP, windowMs, ns, ip, login),
    loginPerAddressAccount: new Limiter(
      app,
      'login-ip-account',
      config.RATE_LIMIT_LOGIN_PER_ACCOUNT,
      windowMs,
      ns,
      ipAndEmail,
      login,
    ),
    loginFailuresPerAccount: failuresPerAccount,
    async loginDelayMs(request) {
      if (maxDelay === 0) return 0;
      const failures = await failuresPerAccount.count(request);
      if (failures <= FREE_FAILURES) return 0;
      return Math.min(maxDelay, Math.round((maxDelay / 16) * 2 ** (failures - FREE_FAILURES - 1)));
    },
    signupPerIp: new Limiter(app, 'signup-ip', config.RATE_LIMIT_SIGNUP_PER_IP, windowMs, ns, ip),
    signupPerAccount: new Limiter(app, 'signup-account', config.RATE_LIMIT_SIGNUP_PER_ACCOUNT, windowMs, ns, bodyEmail),
    googlePerIp: new Limiter(app, 'google-ip', config.RATE_LIMIT_LOGIN_PER_IP, windowMs, ns, ip),
    tokensPerIp: new Limiter(app, 'tokens-ip', config.RATE_LIMIT_LOGIN_PER_IP, windowMs, ns, ip),
    passwordResetPerIp: new Limiter(app, 'reset-ip', config.RATE_LIMIT_PASSWORD_RESET_PER_IP, windowMs, ns, ip),
    passwordResetPerEmail: new Limiter(
      app,
      'reset-email',
      config.RATE_LIMIT_PASSWORD_RESET_PER_EMAIL,
      windowMs,
      ns,
      bodyEmail,
    ),
    verifyResendPerAccount: new Limiter(
      app,
      'verify-resend',
      config.RATE_LIMIT_VERIFY_RESEND_PER_ACCOUNT,
      windowMs,
      ns,
      userId,
    ),
    passwordChangePerAccount: new Limiter(
      app,
      'password-change',
      config.RATE_LIMIT_LOGIN_PER_ACCOUNT,
      windowMs,
      ns,
      userId,
    ),
  };
}
