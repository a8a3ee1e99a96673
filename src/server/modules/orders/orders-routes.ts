import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema, idParamsSchema } from '../../../shared/schemas/common.ts';
import {
  allOrdersQuerySchema,
  deleteOrderResponseSchema,
  myOrdersQuerySchema,
  orderSchema,
  payOrderBodySchema,
  placeOrderBodySchema,
} from '../../../shared/schemas/orders.ts';
import { currentUser, requireAdmin, requireUser } from '../../plugins/auth.ts';
import { createPaymentProvider } from '../payments/payment-settings.ts';
import { PaymentsService } from '../payments/payments-service.ts';
import { toWireOrder } from './order-mapper.ts';
import { OrdersService } from './orders-service.ts';

const security = [{ bearerAuth: [] }];
const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
};

/** Placing, listing, paying, deleting and shipping orders. */
export const ordersRoutes: FastifyPluginAsyncZod = async (app) => {
  const payments = new PaymentsService(app.db, createPaymentProvider(app.config, app.db));
  const orders = new OrdersService(app.db, payments);

  app.post(
    '/api/myorder',
    {
      preHandler: requireUser,
      schema: {
        tags: ['orders'],
        summary: 'Place an order',
        description:
          'Reserves the stock and records the order. Price, part name and buyer come from the database and the token; ' +
          'the spec’s `price`, `name`, `userName` and `email` fields are accepted and ignored. ' +
          '422 `below_minimum_order` (details carry `minimumOrder`) or `stock_out`.',
        security,
        body: placeOrderBodySchema,
        response: { 201: orderSchema, ...errors, 422: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const order = await orders.place(currentUser(request), request.body);
      return reply.status(201).send(order);
    },
  );

  app.get(
    '/api/myorder',
    {
      preHandler: requireUser,
      schema: {
        tags: ['orders'],
        summary: "The caller's orders, newest first",
        description: 'Another email than the caller’s is allowed to admins only (403 otherwise).',
        security,
        querystring: myOrdersQuerySchema,
        response: { 200: z.array(orderSchema), ...errors },
      },
    },
    async (request) => orders.listMine(currentUser(request), request.query.email),
  );

  app.get(
    '/api/myorder/:id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['orders'],
        summary: 'One order (its buyer or an admin; anyone else gets 404)',
        security,
        params: idParamsSchema,
        response: { 200: orderSchema, ...errors },
      },
    },
    async (request) => orders.get(currentUser(request), request.params.id),
  );

  app.delete(
    '/api/myorder/:id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['orders'],
        summary: 'Delete an unpaid order and release its stock',
        description: 'Its buyer or an admin. A paid order answers 409 and stays.',
        security,
        params: idParamsSchema,
        response: { 200: deleteOrderResponseSchema, ...errors, 409: errorResponseSchema },
      },
    },
    async (request) => {
      await orders.delete(currentUser(request), request.params.id);
      return { deletedCount: 1 };
    },
  );

  app.patch(
    '/api/myorder/:id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['orders', 'payments'],
        summary: 'Mark an order paid after the provider confirms the payment',
        description:
          'The server asks the payment provider whether `transactionId` succeeded for this order and its full amount; ' +
          'only then is the order paid. Repeating the same id answers 200 and changes nothing.',
        security,
        params: idParamsSchema,
        body: payOrderBodySchema,
        response: {
          200: orderSchema,
          ...errors,
          409: errorResponseSchema,
          422: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
    },
    async (request) =>
      toWireOrder(await payments.confirmOrderPaid(currentUser(request), request.params.id, request.body.transactionId)),
  );

  app.get(
    '/api/allorder',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['orders', 'admin'],
        summary: 'Every order, newest first (admin)',
        description: '`limit`/`offset` page the list; the total is in the `X-Total-Count` header.',
        security,
        querystring: allOrdersQuerySchema,
        response: { 200: z.array(orderSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { items, total } = await orders.listAll(request.query);
      reply.header('x-total-count', String(total));
      return items;
    },
  );

  app.patch(
    '/api/allorder/:id/ship',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['orders', 'admin'],
        summary: 'Mark a paid order shipped (admin)',
        description: 'Paid → shipped. Already shipped answers 200 unchanged; an unpaid order answers 409.',
        security,
        params: idParamsSchema,
        response: { 200: orderSchema, ...errors, 409: errorResponseSchema },
      },
    },
    async (request) => orders.ship(request.params.id),
  );
};
