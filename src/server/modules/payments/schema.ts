import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { paymentAttemptOutcomes, paymentProviders, refundStatuses } from '../../../shared/enums.ts';
import { createdAt, sqlList, updatedAt } from '../../db/columns.ts';
import { orders } from '../orders/schema.ts';

/**
 * One payment intent per order and provider, or per group of orders and provider: asking again returns
 * the same one. The orders an intent pays are in `payment_intent_orders`; `order_id` stays set for an intent of one
 * order (the spec's form) so the previous release still finds it, and is null for a group's.
 */
export const paymentIntents = pgTable(
  'payment_intents',
  {
    id: text('id').primaryKey(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    /** The sorted order ids of a group payment, hashed: the same group asked again finds its intent. */
    groupKey: text('group_key'),
    provider: text('provider', { enum: paymentProviders }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    clientSecret: text('client_secret').notNull(),
    status: text('status').notNull().default('requires_payment_method'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One LIVE intent per order and per group: a cancelled one (retired when another payment for the same orders
    // was offered, so no order can be paid twice) stays as a record beside its successor.
    uniqueIndex('payment_intents_order_provider_live_unique')
      .on(t.orderId, t.provider)
      .where(sql`${t.status} <> 'canceled'`),
    uniqueIndex('payment_intents_group_provider_live_unique')
      .on(t.groupKey, t.provider)
      .where(sql`${t.status} <> 'canceled'`),
    check('payment_intents_amount_positive', sql`${t.amountCents} > 0`),
    check('payment_intents_order_or_group', sql`${t.orderId} is not null or ${t.groupKey} is not null`),
  ],
);

/**
 * Which orders a payment intent pays, and how much of it each (ADR 011): one row for an intent of one
 * order, N for a group's. Refunds and the webhook find an order's payment here.
 */
export const paymentIntentOrders = pgTable(
  'payment_intent_orders',
  {
    intentId: text('intent_id')
      .notNull()
      .references(() => paymentIntents.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.intentId, t.orderId] }),
    index('payment_intent_orders_order_idx').on(t.orderId),
    check('payment_intent_orders_amount_positive', sql`${t.amountCents} > 0`),
  ],
);

/** Every card attempt at the built-in test gateway, kept as Stripe keeps charges. */
export const paymentAttempts = pgTable(
  'payment_attempts',
  {
    id: text('id').primaryKey(),
    intentId: text('intent_id')
      .notNull()
      .references(() => paymentIntents.id, { onDelete: 'cascade' }),
    outcome: text('outcome', { enum: paymentAttemptOutcomes }).notNull(),
    declineCode: text('decline_code'),
    cardLast4: text('card_last4').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('payment_attempts_intent_idx').on(t.intentId)],
);

/**
 * Refunds of paid orders, one order each, never deleted. A row is written `pending` before the provider is
 * asked (so shipping the order meanwhile is refused and a retry reuses it, with the same idempotency key), then
 * `succeeded` with the provider's refund id, or `failed`. At most one live (pending or succeeded) refund per order.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    /** The payment refunded: the intent id the order was paid with (Stripe pi_…, or the test gateway's). */
    paymentId: text('payment_id').notNull(),
    provider: text('provider', { enum: paymentProviders }).notNull(),
    /** The provider's refund id (re_…), once it answered. */
    providerRefundId: text('provider_refund_id'),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    status: text('status', { enum: refundStatuses }).notNull().default('pending'),
    /** Who asked: an admin's refund, or Stripe telling us of one made in its dashboard. */
    source: text('source').notNull().default('admin'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('refunds_amount_positive', sql`${t.amountCents} > 0`),
    check('refunds_status_valid', sql`${t.status} in ${sqlList(refundStatuses)}`),
    uniqueIndex('refunds_live_order_unique').on(t.orderId).where(sql`${t.status} <> 'failed'`),
    uniqueIndex('refunds_provider_refund_unique').on(t.providerRefundId),
  ],
);

/** Webhook event ids already handled, so a repeated delivery changes nothing. */
export const processedWebhookEvents = pgTable(
  'processed_webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);
