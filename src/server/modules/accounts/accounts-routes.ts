import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Sign-up, sign-in, Google, tokens, roles, users admin and profile: filled by the accounts work. */
export const accountsRoutes: FastifyPluginAsyncZod = async () => {};
