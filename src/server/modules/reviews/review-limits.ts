import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { reviewLimitMessage } from '../../../shared/schemas/reviews.ts';
import { AppError } from '../../errors.ts';

/** How many reviews one account, and one address, may post in a window (docs/api.md). */
export interface ReviewLimitOptions {
  perAccount: number;
  perAddress: number;
  windowSeconds: number;
  /** The counters' key prefix in the shared store (RATE_LIMIT_NAMESPACE). */
  namespace: string;
}

export const DEFAULT_REVIEW_LIMITS: ReviewLimitOptions = {
  perAccount: 5,
  perAddress: 20,
  windowSeconds: 24 * 60 * 60,
  namespace: 'redline:',
};

/**
 * Counters of @fastify/rate-limit (in Redis when REDIS_URL is set, so every instance shares them; else in memory),
 * counted only for a review that is about to be written: bad input and unverified accounts are refused before.
 */
export function createReviewLimits(app: FastifyInstance, options: ReviewLimitOptions) {
  const counter = (name: string, max: number, keyOf: (request: FastifyRequest) => string) => {
    const limit = app.createRateLimit({
      max,
      timeWindow: options.windowSeconds * 1000,
      keyGenerator: (request) => `${options.namespace}${name}:${keyOf(request)}`,
    });
    return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      let result: Awaited<ReturnType<typeof limit>>;
      try {
        result = await limit(request);
      } catch (error) {
        // The store failed outright (the shared store already falls back to memory): a review is not worth a 5xx.
        request.log.warn({ err: error, limit: name }, 'review limit store unavailable; review allowed');
        return;
      }
      if (!result.isAllowed && result.isExceeded) {
        const retryAfter = Math.max(1, result.ttlInSeconds);
        reply.header('retry-after', String(retryAfter));
        throw new AppError(429, 'rate_limited', reviewLimitMessage(retryAfter));
      }
    };
  };
  return {
    perAccount: counter('review-account', options.perAccount, (request) => request.user?.id ?? request.ip),
    perAddress: counter('review-ip', options.perAddress, (request) => request.ip),
  };
}
