import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Reading and adding reviews: filled by the catalogue work. */
export const reviewsRoutes: FastifyPluginAsyncZod = async () => {};
