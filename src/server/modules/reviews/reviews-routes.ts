import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  REVIEW_PAGE_MAX,
  REVIEW_PAGE_SIZE,
  reviewInputSchema,
  reviewListQuerySchema,
  reviewSchema,
} from '../../../shared/schemas/reviews.ts';
import { currentUser, requireUser } from '../../plugins/auth.ts';
import { bearerAuth, errorResponses } from '../../route-schemas.ts';
import { createReviewLimits, DEFAULT_REVIEW_LIMITS, type ReviewLimitOptions } from './review-limits.ts';
import type { ReviewsService } from './reviews-service.ts';

export const reviewsRoutes: FastifyPluginAsyncZod<{ reviews: ReviewsService; limits?: ReviewLimitOptions }> = async (
  app,
  { reviews, limits = DEFAULT_REVIEW_LIMITS },
) => {
  const postLimits = createReviewLimits(app, limits);
  app.get(
    '/api/review',
    {
      schema: {
        tags: ['reviews'],
        summary: 'List reviews, newest first',
        description:
          `At most \`limit\` reviews (default ${REVIEW_PAGE_SIZE}, at most ${REVIEW_PAGE_MAX}). A picture the shop ` +
          "does not serve (an older review linked to another site) is answered as the shop's neutral avatar.",
        querystring: reviewListQuerySchema,
        response: { 200: z.array(reviewSchema), ...errorResponses(400) },
      },
    },
    async (request) => reviews.list(request.query.limit),
  );

  app.post(
    '/api/review',
    {
      onRequest: requireUser,
      // After validation, so bad input is told what is wrong and counts against no limit.
      preHandler: [
        async (request) => reviews.assertMayPost(currentUser(request)),
        postLimits.perAccount,
        postLimits.perAddress,
      ],
      schema: {
        tags: ['reviews'],
        summary: 'Add a review (signed in)',
        description:
          'Stored with the signed-in author. Needs a verified email (403 `email_not_verified` until then). `img` ' +
          'must be a picture the shop serves (`/images/…` or an uploaded `/uploads/parts/…` photo): a link to ' +
          `another site is 400. At most ${DEFAULT_REVIEW_LIMITS.perAccount} reviews per account and ` +
          `${DEFAULT_REVIEW_LIMITS.perAddress} per address in ${DEFAULT_REVIEW_LIMITS.windowSeconds / 3600} hours ` +
          '(429 with `Retry-After` past them).',
        security: bearerAuth,
        body: reviewInputSchema,
        response: { 201: reviewSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const review = await reviews.add(request.body, currentUser(request).id);
      return reply.status(201).send(review);
    },
  );
};
