import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Payment intents, confirmation and webhooks: filled by the payments work. */
export const paymentsRoutes: FastifyPluginAsyncZod = async () => {};
