import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idempotencyKeyHeadersSchema, uuidParamsSchema } from '../../../shared/schemas/common.ts';
import {
  allOrdersQuerySchema,
  deleteOrderResponseSchema,
  myOrdersQuerySchema,
  orderDetailSchema,
  orderSchema,
  placeOrderBodySchema,
  shipOrderBodySchema,
} from '../../../shared/schemas/orders.ts';
import { pageLinks } from '../../page-links.ts';
import { currentUser, requireAdmin, requireUser } from '../../plugins/auth.ts';
import { bearerAuth, errorResponses } from '../../route-schemas.ts';
import type { OrdersService } from './orders-service.ts';

/** Placing, listing, deleting and shipping orders (paying for one is the payments module's PATCH /api/myorder/:id). */
export const ordersRoutes: FastifyPluginAsyncZod<{ orders: OrdersService }> = async (app, { orders }) => {
  app.post(
    '/api/myorder',
    {
      onRequest: requireUser,
      schema: {
        tags: ['orders'],
        summary: 'Place an order',
        description:
          'Reserves the stock and records the order. Price, part name and buyer come from the database and the token; ' +
          'the spec’s `price`, `name`, `userName` and `email` fields are accepted and ignored. ' +
          '422 `below_minimum_order` (details carry `minimumOrder`) or `stock_out`; 422 `hold_limit`, ' +
          '`verify_email_to_hold_more`, `address_hold_limit` or `new_account_hold_limit` when the unpaid PCS of the ' +
          'part held by the customer, an unverified account, the client address or new accounts would pass their cap. ' +
          'With an `Idempotency-Key`, a retry of the same request answers the first result again (header ' +
          '`Idempotent-Replayed: true`) and places nothing more; the same key with another body is 409 ' +
          '`idempotency_key_reused`. Keys are kept at least 24 hours.',
        security: bearerAuth,
        headers: idempotencyKeyHeadersSchema,
        body: placeOrderBodySchema,
        response: { 201: orderSchema, ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) =>
      reply.idempotent(201, (db) => orders.place(currentUser(request), request.body, db, request.ip)),
  );

  app.get(
    '/api/myorder',
    {
      onRequest: requireUser,
      schema: {
        tags: ['orders'],
        summary: "The caller's orders, newest first",
        description:
          'Another email than the caller’s is allowed to admins only (403 otherwise). `limit` (default 100, at most ' +
          '500) and `offset` page the list, or `after`/`before` a cursor (keyset paging: `X-Next-Cursor`, ' +
          '`X-Prev-Cursor` and `Link` name the pages beside this one); the total is in the `X-Total-Count` header.',
        security: bearerAuth,
        querystring: myOrdersQuerySchema,
        response: { 200: z.array(orderSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const page = await orders.listMine(currentUser(request), request.query);
      reply.header('x-total-count', String(page.total));
      pageLinks(reply, request.url, page);
      return page.items;
    },
  );

  app.get(
    '/api/myorder/:id',
    {
      onRequest: requireUser,
      schema: {
        tags: ['orders'],
        summary: 'One order (its buyer or an admin; anyone else gets 404)',
        security: bearerAuth,
        params: uuidParamsSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => orders.get(currentUser(request), request.params.id),
  );

  app.delete(
    '/api/myorder/:id',
    {
      onRequest: requireUser,
      schema: {
        tags: ['orders'],
        summary: 'Cancel (the spec’s delete) an unpaid order and release its stock',
        description:
          'Its buyer or an admin. The order is cancelled, not erased: its row and payment records stay, it leaves ' +
          'the order lists (unless asked for with `status=cancelled`) and a second delete answers 404. A paid order ' +
          'answers 409 and stays.',
        security: bearerAuth,
        params: uuidParamsSchema,
        response: { 200: deleteOrderResponseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      await orders.delete(currentUser(request), request.params.id);
      return { deletedCount: 1 };
    },
  );

  app.get(
    '/api/allorder',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['orders', 'admin'],
        summary: 'Every order, newest first (admin)',
        description:
          '`status` filters (without it, cancelled orders are left out), `q` searches the customer’s email or name ' +
          'and the part’s name; `limit`/`offset` page the list, or `after`/`before` a cursor (keyset paging: ' +
          '`X-Next-Cursor`, `X-Prev-Cursor` and `Link` name the pages beside this one; a deep page costs what the ' +
          'first does); the total is in the `X-Total-Count` header.',
        security: bearerAuth,
        querystring: allOrdersQuerySchema,
        response: { 200: z.array(orderSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const page = await orders.listAll(request.query);
      reply.header('x-total-count', String(page.total));
      pageLinks(reply, request.url, page);
      return page.items;
    },
  );

  app.get(
    '/api/orders/:id/detail',
    {
      onRequest: requireUser,
      schema: {
        tags: ['orders'],
        summary: 'The order page: items, prices, address, phone, times, payment id, tracking and timeline',
        description: 'Its buyer or an admin; anyone else gets 404.',
        security: bearerAuth,
        params: uuidParamsSchema,
        response: { 200: orderDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => orders.detail(currentUser(request), request.params.id),
  );

  app.patch(
    '/api/allorder/:id/ship',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['orders', 'admin'],
        summary: 'Mark a paid order shipped, with carrier and tracking number (admin)',
        description:
          'Paid → shipped; the buyer is mailed the carrier and tracking number. The body is optional (the bodiless ' +
          'call ships without tracking). Already shipped answers 200 unchanged; an unpaid order, or one being ' +
          'refunded, answers 409.',
        security: bearerAuth,
        params: uuidParamsSchema,
        body: shipOrderBodySchema.nullish(),
        response: { 200: orderSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => orders.ship(request.params.id, request.body ?? undefined),
  );

  app.patch(
    '/api/allorder/:id/deliver',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['orders', 'admin'],
        summary: 'Mark a shipped order delivered (admin)',
        description: 'Shipped → delivered; the buyer is mailed. Again answers 200 unchanged; other states 409.',
        security: bearerAuth,
        params: uuidParamsSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => orders.deliver(request.params.id),
  );
};
