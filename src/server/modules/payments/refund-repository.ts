import { and, eq, ne } from 'drizzle-orm';
import type { PaymentProviderName } from '../../../shared/enums.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { refunds } from '../../db/schema.ts';

export type RefundRow = typeof refunds.$inferSelect;
type Executor = Database | Transaction;

/** The refunds table (payments module). Rows are never deleted: a failed refund stays, marked failed. */
export class RefundRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  /** The order's pending or succeeded refund, if any (there is at most one: a partial unique index). */
  async findLive(orderId: string, db: Executor = this.#db): Promise<RefundRow | undefined> {
    const [row] = await db
      .select()
      .from(refunds)
      .where(and(eq(refunds.orderId, orderId), ne(refunds.status, 'failed')))
      .limit(1);
    return row;
  }

  async findByProviderId(providerRefundId: string, db: Executor = this.#db): Promise<RefundRow | undefined> {
    const [row] = await db.select().from(refunds).where(eq(refunds.providerRefundId, providerRefundId)).limit(1);
    return row;
  }

  /**
   * Records a refund about to be asked of the provider, in the caller's transaction (the order's row locked), or
   * answers the live one already there (a retry after a crash or a timeout reuses it and its idempotency key).
   */
  async insertPending(
    tx: Transaction,
    row: {
      orderId: string;
      paymentId: string;
      provider: PaymentProviderName;
      amountCents: number;
      source: 'admin' | 'stripe';
    },
  ): Promise<RefundRow> {
    const existing = await this.findLive(row.orderId, tx);
    if (existing) return existing;
    const [inserted] = await tx.insert(refunds).values(row).returning();
    if (!inserted) throw new Error('refund not recorded');
    return inserted;
  }

  async markSucceeded(tx: Transaction, id: string, providerRefundId: string): Promise<void> {
    await tx
      .update(refunds)
      .set({ status: 'succeeded', providerRefundId, updatedAt: new Date() })
      .where(eq(refunds.id, id));
  }

  /** The provider refused: the row stays as history, and a new refund of the order may be asked. */
  async markFailed(id: string): Promise<void> {
    await this.#db
      .update(refunds)
      .set({ status: 'failed', updatedAt: new Date() })
      .where(and(eq(refunds.id, id), eq(refunds.status, 'pending')));
  }
}
