import { z } from 'zod';
import { checkCursorQuery, cursorQuery } from '../cursor.ts';
import { orderCancelReasons, orderStatuses } from '../enums.ts';
import { phoneNumberSchema } from './phone.ts';

/**
 * An order as it travels on the wire: the spec's fields (`_id`, `name` = the part's name, `price` = unit price in
 * dollars, `userName`, `displayName`, `paid`, `transactionId`) plus what a real shop needs (total, status, address).
 */
export const orderSchema = z.object({
  _id: z.string(),
  partId: z.string().nullable().describe('Null when the part has since been deleted'),
  name: z.string().describe("The part's name when the order was placed"),
  price: z.number().describe('Unit price in dollars when the order was placed'),
  quantity: z.number().int().describe('PCS'),
  total: z.number().describe('Dollars: price x quantity'),
  email: z.string(),
  userName: z.string(),
  displayName: z.string(),
  address: z.string(),
  phone: z.string(),
  paid: z.boolean(),
  status: z.enum(orderStatuses),
  transactionId: z.string().nullable(),
  createdAt: z.string(),
  carrier: z.string().nullable().describe('Set when the order shipped'),
  trackingNumber: z.string().nullable().describe("The carrier's tracking number, shown to the buyer"),
});
export type Order = z.infer<typeof orderSchema>;

/** One step of an order's life, for the order page's timeline. */
export const orderTimelineEventSchema = z.object({
  event: z.enum(['placed', 'paid', 'shipped', 'delivered', 'cancelled', 'expired', 'refunded', 'disputed']),
  at: z.string(),
});

/**
 * `GET /api/orders/:id/detail`: the order page for its buyer or an admin. Everything the order knows:
 * lines (one: the spec's order is one part), prices, shipping address and phone, each step's time, the payment id,
 * carrier and tracking, and the timeline in time order.
 */
export const orderDetailSchema = orderSchema.extend({
  items: z.array(
    z.object({
      partId: z.string().nullable(),
      name: z.string(),
      unitPrice: z.number().describe('Dollars'),
      quantity: z.number().int(),
      lineTotal: z.number().describe('Dollars'),
    }),
  ),
  placedAt: z.string(),
  paidAt: z.string().nullable(),
  shippedAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  cancelReason: z.enum(orderCancelReasons).nullable(),
  refundedAt: z.string().nullable(),
  disputedAt: z.string().nullable(),
  timeline: z.array(orderTimelineEventSchema),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

/** `PATCH /api/allorder/:id/ship`: the carrier and tracking number (optional for the spec's bodiless call). */
export const shipOrderBodySchema = z.strictObject({
  carrier: z.string().trim().min(1, 'Carrier Is Required').max(60, 'Carrier Must Be 60 Characters Or Fewer'),
  trackingNumber: z
    .string()
    .trim()
    .min(1, 'Tracking Number Is Required')
    .max(64, 'Tracking Number Must Be 64 Characters Or Fewer')
    .regex(/^[A-Za-z0-9 -]+$/, 'Use Letters, Digits, Spaces And Dashes Only'),
});
export type ShipOrderBody = z.infer<typeof shipOrderBodySchema>;

const orderQuantitySchema = z
  .number({ error: 'Quantity Must Be A Whole Number' })
  .int('Quantity Must Be A Whole Number')
  .min(1, 'Quantity Must Be At Least 1')
  .max(1_000_000, 'Quantity Must Be At Most 1,000,000');

/**
 * The body of `POST /api/myorder`. The spec's client also sends `price`, `name`, `userName` and `email`: they are
 * accepted so old clients keep working, and ignored — price and name come from the part, identity from the token.
 */
export const placeOrderBodySchema = z.strictObject({
  partId: z.string().min(1, 'Choose A Part').max(64),
  quantity: orderQuantitySchema,
  address: z.string().trim().max(300, 'Address Must Be 300 Characters Or Fewer').optional(),
  phone: phoneNumberSchema.optional(),
  price: z.unknown().optional().describe('Ignored: the price comes from the part'),
  name: z.unknown().optional().describe('Ignored: the name comes from the part'),
  userName: z.unknown().optional().describe('Ignored: the name comes from the signed-in account'),
  email: z.unknown().optional().describe('Ignored: the email comes from the signed-in account'),
});
export type PlaceOrderBody = z.infer<typeof placeOrderBodySchema>;

/**
 * `GET /api/myorder` answers one page (newest first) and the total in `X-Total-Count`. Without `limit` a page holds
 * MY_ORDERS_DEFAULT_LIMIT orders: every order of a usual customer, as the spec's client expects, while a customer
 * with thousands no longer gets them all in one answer.
 */
export const MY_ORDERS_DEFAULT_LIMIT = 100;

/** Keyset paging of the order lists: the answer's `X-Next-Cursor` / `Link` name the pages beside it. */
const orderCursorFields = {
  after: cursorQuery.optional().describe('The page after this cursor (not with `offset`)'),
  before: cursorQuery.optional().describe('The page before this cursor'),
};

export const myOrdersQuerySchema = z
  .strictObject({
    email: z.string().trim().max(254).optional().describe("Defaults to the caller's email; another email needs admin"),
    status: z.enum(orderStatuses).optional().describe('Only orders in this state; without it, all but cancelled ones'),
    limit: z.coerce.number().int().min(1).max(500).optional().describe(`Page size, default ${MY_ORDERS_DEFAULT_LIMIT}`),
    offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
    ...orderCursorFields,
  })
  .superRefine((query, ctx) => checkCursorQuery(query, 'orders', ctx));
export type MyOrdersQuery = z.infer<typeof myOrdersQuerySchema>;

export const allOrdersQuerySchema = z
  .strictObject({
    status: z.enum(orderStatuses).optional().describe('Only orders in this state; without it, all but cancelled ones'),
    q: z.string().trim().max(100).optional().describe("Search: the customer's email or name, or the part's name"),
    limit: z.coerce.number().int().min(1).max(500).optional(),
    offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
    ...orderCursorFields,
  })
  .superRefine((query, ctx) => checkCursorQuery(query, 'orders', ctx));
export type AllOrdersQuery = z.infer<typeof allOrdersQuerySchema>;

/** The body of `PATCH /api/myorder/:id`; the spec's client also sends the order as `order`, which is ignored. */
export const payOrderBodySchema = z.strictObject({
  transactionId: z.string().trim().min(1, 'Transaction Id Is Required').max(255),
  order: z.unknown().optional().describe('Ignored: the order is the one in the path'),
});

export const deleteOrderResponseSchema = z.object({ deletedCount: z.number().int() });
