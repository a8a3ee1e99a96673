import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Placing, listing, deleting and shipping orders: filled by the orders work. */
export const ordersRoutes: FastifyPluginAsyncZod = async () => {};
