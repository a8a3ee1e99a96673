import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { shipToSchema } from '../../../shared/schemas/addresses.ts';
import { checkoutBodySchema, checkoutResponseSchema } from '../../../shared/schemas/cart.ts';
import { idempotencyKeyHeadersSchema, uuidParamsSchema } from '../../../shared/schemas/common.ts';
import { orderSchema } from '../../../shared/schemas/orders.ts';
import { currentUser, requireUser } from '../../plugins/auth.ts';
import { bearerAuth, errorResponses } from '../../route-schemas.ts';
import type { CheckoutService } from './checkout-service.ts';

/** Checkout of the cart and an unpaid order's shipping address (ADR 011). */
export const checkoutRoutes: FastifyPluginAsyncZod<{ checkout: CheckoutService }> = async (app, { checkout }) => {
  app.post(
    '/api/checkout',
    {
      onRequest: requireUser,
      schema: {
        tags: ['orders', 'cart'],
        summary: "Place every line of the caller's cart as an order, all or none",
        description:
          'Body: `{address, phone}` or `{addressId}` (a saved address). Every line becomes an order as ' +
          '`POST /api/myorder` places it, all with one `checkoutId`, in ONE transaction: all lines reserve their ' +
          'stock or none does. A refusal is 422 `checkout_refused` with one entry per refused line in `details` ' +
          '(`partId`, `code` and `message` of the order rule) and changes nothing: the cart stays. The cart is ' +
          'emptied and the address saved with the orders. 422 `cart_empty` for an empty cart. With an ' +
          '`Idempotency-Key`, a retry answers the first result and places nothing more.',
        security: bearerAuth,
        headers: idempotencyKeyHeadersSchema,
        body: checkoutBodySchema,
        response: { 201: checkoutResponseSchema, ...errorResponses(400, 401, 404, 409, 422) },
      },
    },
    async (request, reply) =>
      reply.idempotent(201, (db) => checkout.checkout(currentUser(request), request.body, db, request.ip)),
  );

  app.patch(
    '/api/myorder/:id/address',
    {
      onRequest: requireUser,
      schema: {
        tags: ['orders'],
        summary: "Give one of the caller's unpaid orders its shipping address",
        description:
          'Body: `{address, phone}` or `{addressId}`. An order is paid only with a shipping address; the payment ' +
          'page asks for one first when the order was placed without. Only the buyer (an admin: 403, anyone else: ' +
          '404); a paid or closed order answers 409 `order_not_unpaid`. The address is saved to the address book.',
        security: bearerAuth,
        params: uuidParamsSchema,
        body: shipToSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => checkout.setShippingAddress(currentUser(request), request.params.id, request.body),
  );
};
