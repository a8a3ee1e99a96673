import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  cartItemParamsSchema,
  cartSchema,
  mergeCartBodySchema,
  setCartItemBodySchema,
} from '../../../shared/schemas/cart.ts';
import { currentUser, requireUser } from '../../plugins/auth.ts';
import { bearerAuth, errorResponses } from '../../route-schemas.ts';
import type { CartService } from './cart-service.ts';

/**
 * The signed-in customer's cart. A visitor's cart lives in their browser and joins this one through
 * `POST /api/cart/merge` when they sign in. Every write answers the whole cart as it now is.
 */
export const cartRoutes: FastifyPluginAsyncZod<{ cart: CartService }> = async (app, { cart }) => {
  app.get(
    '/api/cart',
    {
      onRequest: requireUser,
      schema: {
        tags: ['cart'],
        summary: "The caller's cart: lines with the parts' live price and stock, and the total",
        description:
          'A line whose quantity the order rule no longer allows (stock fell, minimum rose) says why in `problem`.',
        security: bearerAuth,
        response: { 200: cartSchema, ...errorResponses(401) },
      },
    },
    async (request) => cart.get(currentUser(request).id),
  );

  app.put(
    '/api/cart/items/:partId',
    {
      onRequest: requireUser,
      schema: {
        tags: ['cart'],
        summary: 'Put a part in the cart with a quantity (or change its quantity)',
        description:
          'The quantity must satisfy the order rule now (minimum order, stock, total): 422 `below_minimum_order`, ' +
          '`order_too_large` or `stock_out` as for placing an order. An unknown part is 404; a cart holds at most ' +
          '50 parts (422 `cart_full`). Nothing is reserved until checkout.',
        security: bearerAuth,
        params: cartItemParamsSchema,
        body: setCartItemBodySchema,
        response: { 200: cartSchema, ...errorResponses(400, 401, 404, 422) },
      },
    },
    async (request) => cart.setItem(currentUser(request).id, request.params.partId, request.body.quantity),
  );

  app.delete(
    '/api/cart/items/:partId',
    {
      onRequest: requireUser,
      schema: {
        tags: ['cart'],
        summary: 'Take a part out of the cart',
        description: 'Answers the cart without it. A part that is not in the cart is 404.',
        security: bearerAuth,
        params: cartItemParamsSchema,
        response: { 200: cartSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => cart.removeItem(currentUser(request).id, request.params.partId),
  );

  app.post(
    '/api/cart/merge',
    {
      onRequest: requireUser,
      schema: {
        tags: ['cart'],
        summary: "A visitor's cart joins the caller's (at sign-in or sign-up)",
        description:
          'A part in both carts gets the quantities added when the order rule allows it, else the visitor’s ' +
          'quantity; unknown parts and quantities the rule refuses are left out. Answers the merged cart.',
        security: bearerAuth,
        body: mergeCartBodySchema,
        response: { 200: cartSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => cart.merge(currentUser(request).id, request.body),
  );
};
