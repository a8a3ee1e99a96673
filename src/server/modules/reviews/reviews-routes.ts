import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { reviewInputSchema, reviewListQuerySchema, reviewSchema } from '../../../shared/schemas/reviews.ts';
import { currentUser, requireUser } from '../../plugins/auth.ts';
import { bearerAuth, errorResponses } from '../../route-schemas.ts';
import type { ReviewsService } from './reviews-service.ts';

export const reviewsRoutes: FastifyPluginAsyncZod<{ reviews: ReviewsService }> = async (app, { reviews }) => {
  app.get(
    '/api/review',
    {
      schema: {
        tags: ['reviews'],
        summary: 'List reviews, newest first',
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
      schema: {
        tags: ['reviews'],
        summary: 'Add a review (signed in)',
        description: 'Stored with the signed-in author.',
        security: bearerAuth,
        body: reviewInputSchema,
        response: { 201: reviewSchema, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const review = await reviews.add(request.body, currentUser(request).id);
      return reply.status(201).send(review);
    },
  );
};
