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
>;

class RateLimitedError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    const wait =
      retryAfterSeconds > 90 ? `${Math.ceil(retryAfterSeconds / 60)} minutes` : `${retryAfterSeconds} seconds`;
    super(429, 'rate_limited', `Too many attempts. Please try again in ${wait}.`);
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

  constructor(
    app: FastifyInstance,
    name: string,
    max: number,
    windowMs: number,
    namespace: string,
    keyOf: (request: FastifyRequest) => string,
  ) {
    this.#max = max;
    this.#log = app.log;
    this.#limit = app.createRateLimit({
      max,
      timeWindow: windowMs,
      keyGenerator: (request) => `${namespace}${name}:${keyOf(request)}`,
    });
  }

  // Arrow functions, so a route can name them as its preHandler as they are.
  readonly hit = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const result = await this.#run(request, true);
    if (result && !result.isAllowed && result.isExceeded) refuse(reply, result.ttlInSeconds);
  };

  readonly check = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const result = await this.#run(request, false);
    if (result && !result.isAllowed && result.remaining <= 0 && result.ttl > 0) refuse(reply, result.ttlInSeconds);
  };

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

function refuse(reply: FastifyReply, seconds: number): never {
  const retryAfter = Math.max(1, seconds);
  reply.header('retry-after', String(retryAfter));
  throw new RateLimitedError(retryAfter);
}

function bodyEmail(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

interface AbuseLimits {
  loginPerIp: Limiter;
  /** Counts failed sign-ins only: a correct password is never refused because someone else guessed wrong. */
  loginPerAccount: Limiter;
  signupPerIp: Limiter;
  signupPerAccount: Limiter;
  googlePerIp: Limiter;
}

export function createAbuseLimits(app: FastifyInstance, config: LimitConfig): AbuseLimits {
  const windowMs = config.RATE_LIMIT_WINDOW_SECONDS * 1000;
  const ns = config.RATE_LIMIT_NAMESPACE;
  const ip = (request: FastifyRequest) => request.ip;
  return {
    loginPerIp: new Limiter(app, 'login-ip', config.RATE_LIMIT_LOGIN_PER_IP, windowMs, ns, ip),
    loginPerAccount: new Limiter(app, 'login-account', config.RATE_LIMIT_LOGIN_PER_ACCOUNT, windowMs, ns, bodyEmail),
    signupPerIp: new Limiter(app, 'signup-ip', config.RATE_LIMIT_SIGNUP_PER_IP, windowMs, ns, ip),
    signupPerAccount: new Limiter(app, 'signup-account', config.RATE_LIMIT_SIGNUP_PER_ACCOUNT, windowMs, ns, bodyEmail),
    googlePerIp: new Limiter(app, 'google-ip', config.RATE_LIMIT_LOGIN_PER_IP, windowMs, ns, ip),
  };
}
