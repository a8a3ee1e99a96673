import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idempotencyKeyHeadersSchema, uuidParamsSchema } from '../../../shared/schemas/common.ts';
import { orderSchema } from '../../../shared/schemas/orders.ts';
import { requireAdmin } from '../../plugins/auth.ts';
import { bearerAuth, errorResponses } from '../../route-schemas.ts';
import type { RefundsService } from './refunds-service.ts';

/** An admin refunds a paid order that has not shipped. */
export const refundsRoutes: FastifyPluginAsyncZod<{ refunds: RefundsService }> = async (app, { refunds }) => {
  app.post(
    '/api/allorder/:id/refund',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['orders', 'payments', 'admin'],
        summary: 'Refund a paid order that has not shipped (admin)',
        description:
          'Refunds the order’s total through the provider that took the payment (Stripe’s Refunds API, or the test ' +
          'gateway); for an order paid with others in one payment, only this order’s amount. The units go back into ' +
          'stock and the buyer is mailed. Refunding a refunded order again answers it unchanged, so a retry (with ' +
          'or without an `Idempotency-Key`) refunds once. 409 `order_not_refundable` for an unpaid, shipped or ' +
          'cancelled order; 409 `refund_refused` when the provider refuses; 503 when it cannot be reached (retry).',
        security: bearerAuth,
        headers: idempotencyKeyHeadersSchema,
        params: uuidParamsSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request) => refunds.refund(request.params.id),
  );
};
