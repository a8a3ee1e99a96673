import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orderCancelReasons, orderStatuses, paidOrderStatuses } from '../../../shared/enums.ts';
import { createdAt, sqlList, updatedAt } from '../../db/columns.ts';
import { users } from '../accounts/schema.ts';
import { parts } from '../catalog/schema.ts';

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Set null when the part is deleted: the order keeps its own copy of name and unit price. */
    partId: uuid('part_id').references(() => parts.id, { onDelete: 'set null' }),
    /** Restrict: an account with orders is history the shop must keep. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    partName: text('part_name').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    quantity: integer('quantity').notNull(),
    totalCents: integer('total_cents').notNull(),
    email: text('email').notNull(),
    userName: text('user_name').notNull().default(''),
    address: text('address').notNull().default(''),
    phone: text('phone').notNull().default(''),
    paid: boolean('paid').notNull().default(false),
    status: text('status', { enum: orderStatuses }).notNull().default('unpaid'),
    transactionId: text('transaction_id'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The checkout that placed this order with others (ADR 011); null for an order placed alone. */
    checkoutId: uuid('checkout_id'),
    // Fulfilment and cancellation (ADR 002 amended): each step keeps its time for the order's timeline.
    carrier: text('carrier'),
    trackingNumber: text('tracking_number'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** Who ended an unpaid order: its buyer, an admin, or the hold running out. */
    cancelReason: text('cancel_reason', { enum: orderCancelReasons }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** Set when the card holder disputes the charge (Stripe's charge.dispute.created). */
    disputedAt: timestamp('disputed_at', { withTimezone: true }),
    /**
     * The client address the order was placed from, as a keyed hash (HMAC with the app's secret; an IPv6 address by
     * its /64): the cap on what one address may hold unpaid compares it, and the address itself is never stored.
     */
    placedFromKey: text('placed_from_key'),
    /** Placed by an account that had no paid order yet: counted against the shop-wide cap on new accounts' holds. */
    heldByNewAccount: boolean('held_by_new_account').notNull().default(false),
    /**
     * When the please-pay mail was written: not at placing (a buyer who pays at once gets only the receipt) but by
     * the payment-reminder job, once the order has stayed unpaid PAYMENT_REMINDER_DELAY_SECONDS. Null: not yet.
     */
    paymentReminderAt: timestamp('payment_reminder_at', { withTimezone: true }),
  },
  (t) => [
    check('orders_quantity_positive', sql`${t.quantity} > 0`),
    check('orders_unit_price_positive', sql`${t.unitPriceCents} > 0`),
    check('orders_total_matches', sql`${t.totalCents} = ${t.unitPriceCents} * ${t.quantity}`),
    check('orders_status_valid', sql`${t.status} in ${sqlList(orderStatuses)}`),
    // Paid means money was taken: a refunded order was paid (no Pay button), a cancelled one never was.
    check('orders_paid_matches_status', sql`${t.paid} = (${t.status} in ${sqlList(paidOrderStatuses)})`),
    check(
      'orders_cancel_reason_valid',
      sql`${t.cancelReason} is null or ${t.cancelReason} in ${sqlList(orderCancelReasons)}`,
    ),
    check('orders_paid_has_transaction', sql`not ${t.paid} or ${t.transactionId} is not null`),
    // Keyset paging of the order lists: newest first with the id as tie-breaker, per buyer, per status
    // (Manage Orders' filter) and over all.
    index('orders_user_created_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('orders_created_at_idx').on(t.createdAt.desc(), t.id.desc()),
    index('orders_status_created_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    index('orders_part_id_idx').on(t.partId),
    index('orders_checkout_idx').on(t.checkoutId).where(sql`${t.checkoutId} is not null`),
    // The expiry job reads the oldest unpaid orders; the hold limit sums a buyer's unpaid units of a part.
    index('orders_unpaid_created_idx').on(t.createdAt).where(sql`${t.status} = 'unpaid'`),
    // The payment-reminder job reads the oldest unpaid orders not yet reminded.
    index('orders_unreminded_created_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'unpaid' and ${t.paymentReminderAt} is null`),
    index('orders_unpaid_user_part_idx').on(t.userId, t.partId).where(sql`${t.status} = 'unpaid'`),
    // The caps on unpaid holds across accounts: per client address and part, per part for new accounts, and
    // whether a buyer has ever paid (what makes an account no longer new).
    index('orders_unpaid_address_part_idx')
      .on(t.placedFromKey, t.partId)
      .where(sql`${t.status} = 'unpaid' and ${t.placedFromKey} is not null`),
    index('orders_unpaid_new_account_part_idx')
      .on(t.partId)
      .where(sql`${t.status} = 'unpaid' and ${t.heldByNewAccount}`),
    index('orders_paid_user_idx').on(t.userId).where(sql`${t.paid}`),
    index('orders_transaction_idx').on(t.transactionId).where(sql`${t.transactionId} is not null`),
  ],
);
