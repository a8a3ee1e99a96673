import { and, asc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { orders } from '../../db/schema.ts';
import type { OrderRow } from './order-repository.ts';

/** The payment-reminder job's statements on the orders table. */
export class PaymentReminderRepository {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Runs `work` in one transaction: the claim and the mails it writes commit together or not at all. */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.#db.transaction(work);
  }

  /**
   * THE check that an order still needs its please-pay mail: claims, for the caller's transaction, up to `limit`
   * orders placed at or before `placedBy` that are still unpaid and not yet reminded, together with the other orders
   * of their checkouts in that same state (one mail per checkout), marking them reminded at `now`. Rows another
   * transaction holds (a payment being recorded) are skipped, and the update's own condition is checked again
   * after any wait, so an order paid, cancelled or reminded meanwhile is never answered.
   */
  async claimDue(tx: Transaction, placedBy: Date, now: Date, limit: number): Promise<OrderRow[]> {
    const due = await tx
      .select({ id: orders.id, checkoutId: orders.checkoutId })
      .from(orders)
      .where(and(eq(orders.status, 'unpaid'), isNull(orders.paymentReminderAt), lte(orders.createdAt, placedBy)))
      .orderBy(asc(orders.createdAt), asc(orders.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    const ids = due.map((row) => row.id);
    const checkouts = [...new Set(due.flatMap((row) => (row.checkoutId ? [row.checkoutId] : [])))];
    return tx
      .update(orders)
      .set({ paymentReminderAt: now })
      .where(
        and(
          eq(orders.status, 'unpaid'),
          isNull(orders.paymentReminderAt),
          checkouts.length > 0
            ? or(inArray(orders.id, ids), inArray(orders.checkoutId, checkouts))
            : inArray(orders.id, ids),
        ),
      )
      .returning();
  }
}
