import { and, eq, inArray, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { createUser, describeEachDatabase } from '../../../../test/support/test-app.ts';
import { orders, paymentIntentOrders, paymentIntents, refunds } from '../../db/schema.ts';
import { agePlacedOrder, payOrder, placeOrder } from './fulfilment-test-helpers.ts';
import { insertPart, stockOf } from './order-test-helpers.ts';

const ROUNDS = 100;
/** Rounds run side by side, so the four calls of one round also meet other rounds' statements. */
const PARALLEL_ROUNDS = 4;

/**
 * Paying, cancelling (the spec's Delete), refunding and expiring the same order at the same moment,
 * 100 times. Whatever wins, an order is never both charged and cancelled, no payment record disappears, and every
 * unit is on the shelf, held by an unpaid order or sold: stock + held + sold = start.
 */
describeEachDatabase('pay, cancel, refund and expire racing on the same orders', (ctx) => {
  it(`keeps money and stock consistent over ${ROUNDS} concurrent rounds`, { timeout: 240_000 }, async () => {
    const ann = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const START = 1000;
    const part = await insertPart(ctx().database.db, { priceCents: 700, availableQuantity: START, minimumOrder: 1 });
    const intentIds = new Set<string>();
    const outcomes = { paid: 0, cancelled: 0, refunded: 0, expired: 0 };

    const round = async (index: number) => {
      const order = await placeOrder(ctx(), ann, part.id, 1 + (index % 3));
      // Half the rounds' orders are past their hold, so the expiry job races too.
      if (index % 2 === 0) await agePlacedOrder(ctx(), order._id, 49);
      const [pay] = await Promise.all([
        payOrder(ctx(), ann, order._id),
        ctx().app.inject({ method: 'DELETE', url: `/api/myorder/${order._id}`, headers: ann.headers }),
        // The refund comes a moment later, once the payment may have landed.
        new Promise((resolve) => setTimeout(resolve, index % 5)).then(() =>
          ctx().app.inject({ method: 'POST', url: `/api/allorder/${order._id}/refund`, headers: admin.headers }),
        ),
        ctx().app.services.orders.expireOverdue(),
      ]);
      if (pay.statusCode === 200) {
        const id = pay.json().transactionId;
        if (typeof id === 'string') intentIds.add(id);
      }
      for (const statusCode of [pay.statusCode]) expect([200, 404, 409, 422, 400]).toContain(statusCode);
    };
    for (let next = 0; next < ROUNDS; next += PARALLEL_ROUNDS) {
      await Promise.all(
        Array.from({ length: Math.min(PARALLEL_ROUNDS, ROUNDS - next) }, (_, offset) => round(next + offset)),
      );
    }

    const db = ctx().database.db;
    const rows = await db.select().from(orders).where(eq(orders.partId, part.id));
    expect(rows).toHaveLength(ROUNDS);
    for (const row of rows) {
      if (row.status === 'cancelled') outcomes[row.cancelReason === 'expired' ? 'expired' : 'cancelled']++;
      if (row.status === 'paid') outcomes.paid++;
      if (row.status === 'refunded') outcomes.refunded++;
    }

    // 0 orders both charged and cancelled: no cancelled order has a payment that succeeded.
    const cancelledIds = rows.filter((row) => row.status === 'cancelled').map((row) => row.id);
    if (cancelledIds.length > 0) {
      const charged = await db
        .select({ orderId: paymentIntentOrders.orderId })
        .from(paymentIntentOrders)
        .innerJoin(paymentIntents, eq(paymentIntents.id, paymentIntentOrders.intentId))
        .where(and(inArray(paymentIntentOrders.orderId, cancelledIds), eq(paymentIntents.status, 'succeeded')));
      expect(charged).toEqual([]);
    }
    // Every paid or refunded order has its succeeded payment; every refunded one its succeeded refund.
    for (const row of rows.filter((candidate) => candidate.paid)) {
      const [intent] = await db
        .select()
        .from(paymentIntents)
        .where(eq(paymentIntents.id, row.transactionId ?? ''));
      expect(intent?.status).toBe('succeeded');
    }
    for (const row of rows.filter((candidate) => candidate.status === 'refunded')) {
      const done = await db
        .select()
        .from(refunds)
        .where(and(eq(refunds.orderId, row.id), eq(refunds.status, 'succeeded')));
      expect(done).toHaveLength(1);
    }
    // 0 payment records lost: every payment that was confirmed is still there.
    if (intentIds.size > 0) {
      const kept = await db
        .select({ id: paymentIntents.id })
        .from(paymentIntents)
        .where(inArray(paymentIntents.id, [...intentIds]));
      expect(kept).toHaveLength(intentIds.size);
    }
    // stock + held + sold = start.
    const [sums] = await db
      .select({
        held: sql<string>`coalesce(sum(${orders.quantity}) filter (where ${orders.status} = 'unpaid'), 0)`,
        sold: sql<string>`coalesce(sum(${orders.quantity}) filter (where ${orders.status} in ('paid', 'shipped', 'delivered')), 0)`,
      })
      .from(orders)
      .where(eq(orders.partId, part.id));
    const stock = await stockOf(db, part.id);
    expect(stock + Number(sums?.held) + Number(sums?.sold)).toBe(START);
    // The race was real: more than one kind of outcome happened.
    expect(Object.values(outcomes).filter((count) => count > 0).length, JSON.stringify(outcomes)).toBeGreaterThan(1);
  });
});
