import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idempotencyKeyHeadersSchema, uuidParamsSchema } from '../../../shared/schemas/common.ts';
import { orderSchema, payOrderBodySchema } from '../../../shared/schemas/orders.ts';
import {
  confirmPaymentBodySchema,
  confirmPaymentResponseSchema,
  createPaymentIntentBodySchema,
  createPaymentIntentResponseSchema,
  paymentsConfigSchema,
  testGatewayConfirmBodySchema,
  testGatewayConfirmResponseSchema,
} from '../../../shared/schemas/payments.ts';
import { NotFoundError } from '../../errors.ts';
import { currentUser, requireUser } from '../../plugins/auth.ts';
import { bearerAuth, errorResponses } from '../../route-schemas.ts';
import type { PaymentsService } from './payments-service.ts';
import type { RefundsService } from './refunds-service.ts';

/** Payment intents, the built-in test gateway, paying for an order, and Stripe's webhook. */
export const paymentsRoutes: FastifyPluginAsyncZod<{ payments: PaymentsService; refunds: RefundsService }> = async (
  app,
  { payments, refunds },
) => {
  app.get(
    '/api/payments/config',
    {
      schema: {
        tags: ['payments'],
        summary: 'Which payment provider the card form talks to',
        response: { 200: paymentsConfigSchema },
      },
    },
    async () => ({ provider: payments.provider.name, publishableKey: payments.provider.publishableKey }),
  );

  app.post(
    '/api/create-payment-intent',
    {
      onRequest: requireUser,
      schema: {
        tags: ['payments'],
        summary: "Start paying for one of the caller's orders, or for several at once",
        description:
          '`{orderId}` (the spec’s form) or `{orderIds: […]}` (one payment for several orders). The amount ' +
          'is the orders’ total (unit price × quantity, in cents); a `price` in the body is ignored. Asking again for ' +
          'the same order(s) returns the same intent. A paid order answers 409; an order without a shipping address ' +
          '422 `address_required` (details name the orders). Takes an `Idempotency-Key`.',
        security: bearerAuth,
        headers: idempotencyKeyHeadersSchema,
        body: createPaymentIntentBodySchema,
        response: { 200: createPaymentIntentResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 422, 503) },
      },
    },
    async (request, reply) => {
      // A group's intent is stored under the request's Idempotency-Key too (the provider is asked before, outside
      // the key's transaction, and answers the same intent for the same group: its own idempotency key).
      const answer = await payments.createIntent(currentUser(request), request.body);
      return reply.idempotent(200, async () => answer);
    },
  );

  app.post(
    '/api/payments/confirm',
    {
      onRequest: requireUser,
      schema: {
        tags: ['payments'],
        summary: 'Mark every order of a payment paid after the provider confirms it (one payment, several orders)',
        description:
          'The server asks the payment provider whether `transactionId` (the payment intent id) succeeded for its ' +
          'full amount; then every order it pays becomes paid with that transaction id, in one transaction. ' +
          'Repeating it answers 200 and changes nothing. 422 `payment_not_found`, `payment_amount_mismatch` or ' +
          '`payment_not_succeeded`. Takes an `Idempotency-Key`.',
        security: bearerAuth,
        headers: idempotencyKeyHeadersSchema,
        body: confirmPaymentBodySchema,
        response: { 200: confirmPaymentResponseSchema, ...errorResponses(400, 401, 409, 422, 503) },
      },
    },
    async (request, reply) => {
      // The provider is asked first, outside any transaction; only the marking runs under the key.
      const confirmed = await payments.prepareConfirm(currentUser(request), request.body.transactionId);
      return reply.idempotent(200, (db) => payments.finishConfirm(confirmed, db));
    },
  );

  app.patch(
    '/api/myorder/:id',
    {
      onRequest: requireUser,
      schema: {
        tags: ['orders', 'payments'],
        summary: 'Mark an order paid after the provider confirms the payment',
        description:
          'The server asks the payment provider whether `transactionId` succeeded for this order and its full amount; ' +
          'only then is the order paid. Repeating the same id answers 200 and changes nothing.',
        security: bearerAuth,
        params: uuidParamsSchema,
        body: payOrderBodySchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 403, 404, 409, 422, 503) },
      },
    },
    async (request) => payments.confirmOrderPaid(currentUser(request), request.params.id, request.body.transactionId),
  );

  app.post(
    '/api/payments/test-gateway/confirm',
    {
      onRequest: requireUser,
      schema: {
        tags: ['payments'],
        summary: 'Confirm a card payment at the built-in test gateway',
        description:
          'Behaves like Stripe test mode: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, ' +
          '4000 0000 0000 9995 has insufficient funds. Card problems answer 402 with Stripe’s message. ' +
          'Only when the test gateway is the provider (404 otherwise).',
        security: bearerAuth,
        body: testGatewayConfirmBodySchema,
        response: { 200: testGatewayConfirmResponseSchema, ...errorResponses(400, 401, 402, 404, 409) },
      },
    },
    async (request) => {
      if (payments.provider.name !== 'test') throw new NotFoundError();
      return payments.confirmTestCard(currentUser(request), request.body);
    },
  );

  // Stripe signs the exact bytes it sent, so this one route keeps the raw body; the parser lives in this
  // child context only and every other route keeps Fastify's JSON parser.
  await app.register(async (webhook) => {
    webhook.removeContentTypeParser('application/json');
    webhook.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    webhook.post(
      '/api/payments/webhook',
      {
        schema: {
          tags: ['payments'],
          summary: "Stripe's webhook (signature checked on the raw body)",
          description:
            'Marks the order paid on `payment_intent.succeeded`; `charge.refunded` (a refund made in Stripe’s dashboard) ' +
            'refunds the orders it covers, `charge.dispute.created` marks the orders disputed. A repeated delivery of ' +
            'the same event changes nothing.',
          response: { 200: z.object({ received: z.literal(true), handled: z.boolean() }), ...errorResponses(400, 404) },
        },
      },
      async (request) => {
        const signature = request.headers['stripe-signature'];
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.from('');
        const event = payments.verifyStripeSignature(raw, typeof signature === 'string' ? signature : undefined);
        return refunds.handles(event) ? refunds.handleStripeEvent(event) : payments.handleStripeEvent(event);
      },
    );
  });
};
