import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '../../../shared/schemas/common.ts';
import { reviewInputSchema, reviewListQuerySchema, reviewSchema } from '../../../shared/schemas/reviews.ts';
import { currentUser, requireUser } from '../../plugins/auth.ts';
import { ReviewsService } from './reviews-service.ts';

export const reviewsRoutes: FastifyPluginAsyncZod = async (app) => {
  const reviews = new ReviewsService(app.db);

  app.get(
    '/api/review',
    {
      schema: {
        tags: ['reviews'],
        summary: 'List reviews, newest first',
        querystring: reviewListQuerySchema,
        response: { 200: z.array(reviewSchema), 400: errorResponseSchema },
      },
    },
    async (request) => reviews.list(request.query.limit),
  );

  app.post(
    '/api/review',
    {
      // Checked before the body is read: an anonymous caller gets 401 whatever it sends.
      onRequest: requireUser,
      schema: {
        tags: ['reviews'],
        summary: 'Add a review (signed in)',
        description: 'Stored with the signed-in author.',
        security: [{ bearerAuth: [] }],
        body: reviewInputSchema,
        response: { 201: reviewSchema, 400: errorResponseSchema, 401: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const review = await reviews.add(request.body, currentUser(request).id);
      return reply.status(201).send(review);
    },
  );
};
