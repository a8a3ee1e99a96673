import type { FastifyInstance, FastifyRequest } from 'fastify';
import { reviewLimitMessage } from '../../../shared/schemas/reviews.ts';
import { Limiter } from '../../rate-limiter.ts';

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
 * The two counters (Redis when REDIS_URL is set, so every instance shares them; else memory), each a preHandler that
 * counts only a review about to be written: bad input and unverified accounts are refused before.
 */
export function createReviewLimits(app: FastifyInstance, options: ReviewLimitOptions) {
  const windowMs = options.windowSeconds * 1000;
  const refusal = { message: reviewLimitMessage };
  const counter = (name: string, max: number, keyOf: (request: FastifyRequest) => string) =>
    new Limiter(app, name, max, windowMs, options.namespace, keyOf, refusal).hit;
  return {
    perAccount: counter('review-account', options.perAccount, (request) => request.user?.id ?? request.ip),
    perAddress: counter('review-ip', options.perAddress, (request) => request.ip),
  };
}
