import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/** How a refusal reads: the sentence (by default 'Too many attempts…') and details for the web to act on. */
export interface Refusal {
  message?: (retryAfterSeconds: number) => string;
  details?: unknown[];
}

function tooManyAttempts(retryAfterSeconds: number): string {
  const wait = retryAfterSeconds > 90 ? `${Math.ceil(retryAfterSeconds / 60)} minutes` : `${retryAfterSeconds} seconds`;
  return `Too many attempts. Please try again in ${wait}.`;
}

class RateLimitedError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, refusal: Refusal) {
    super(429, 'rate_limited', (refusal.message ?? tooManyAttempts)(retryAfterSeconds), refusal.details);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * One counter of @fastify/rate-limit (in memory, or in Redis when REDIS_URL is set, so every instance shares it).
 * `hit` counts an attempt and refuses past the limit; `check` only looks, for limits that count failures alone.
 */
export class Limiter {
  readonly #limit: ReturnType<FastifyInstance['createRateLimit']>;
  readonly #max: number;
  readonly #log: FastifyInstance['log'];
  readonly #refusal: Refusal;

  constructor(
    app: FastifyInstance,
    name: string,
    max: number,
    windowMs: number,
    namespace: string,
    keyOf: (request: FastifyRequest) => string,
    refusal: Refusal = {},
  ) {
    this.#max = max;
    this.#log = app.log;
    this.#refusal = refusal;
    this.#limit = app.createRateLimit({
      max,
      timeWindow: windowMs,
      keyGenerator: (request) => `${namespace}${name}:${keyOf(request)}`,
    });
  }

  // Arrow functions, so a route can name them as its preHandler as they are.
  readonly hit = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const result = await this.#run(request, true);
    if (result && !result.isAllowed && result.isExceeded) refuse(reply, result.ttlInSeconds, this.#refusal);
  };

  readonly check = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const result = await this.#run(request, false);
    if (result && !result.isAllowed && result.remaining <= 0 && result.ttl > 0) {
      refuse(reply, result.ttlInSeconds, this.#refusal);
    }
  };

  /**
   * Counts this request and answers whether it is within the limit, without refusing it: for work a request may
   * quietly skip (a mail that would only repeat itself) where a 429 would tell more than the answer may.
   */
  async allow(request: FastifyRequest): Promise<boolean> {
    const result = await this.#run(request, true);
    return !(result && !result.isAllowed && result.isExceeded);
  }

  /** How many times this request's key was counted in the current window (0 when the store is down). */
  async count(request: FastifyRequest): Promise<number> {
    const result = await this.#run(request, false);
    return result && !result.isAllowed ? this.#max - result.remaining : 0;
  }

  async #run(request: FastifyRequest, increment: boolean) {
    try {
      return await this.#limit(request, { increment });
    } catch (error) {
      // The shared store is down: a limit is not worth a 5xx (sign-ins are still slowed by scrypt); say so in the log.
      this.#log.warn({ err: error, max: this.#max }, 'rate-limit store unavailable; request allowed');
      return undefined;
    }
  }
}

function refuse(reply: FastifyReply, seconds: number, refusal: Refusal): never {
  const retryAfter = Math.max(1, seconds);
  reply.header('retry-after', String(retryAfter));
  throw new RateLimitedError(retryAfter, refusal);
}
