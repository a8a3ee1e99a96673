import { and, eq, ne, type SQL } from 'drizzle-orm';
import type { PaymentProviderName } from '../../../shared/enums.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { paymentAttempts, paymentIntents, processedWebhookEvents } from '../../db/schema.ts';

type PaymentIntentRow = typeof paymentIntents.$inferSelect;
type Executor = Database | Transaction;

export class PaymentRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  async findForOrder(orderId: string, provider: PaymentProviderName): Promise<PaymentIntentRow | undefined> {
    return this.#findOne(and(eq(paymentIntents.orderId, orderId), eq(paymentIntents.provider, provider)));
  }

  async findById(id: string, provider: PaymentProviderName): Promise<PaymentIntentRow | undefined> {
    return this.#findOne(and(eq(paymentIntents.id, id), eq(paymentIntents.provider, provider)));
  }

  async findByClientSecret(clientSecret: string, provider: PaymentProviderName): Promise<PaymentIntentRow | undefined> {
    return this.#findOne(and(eq(paymentIntents.clientSecret, clientSecret), eq(paymentIntents.provider, provider)));
  }

  async #findOne(where: SQL | undefined): Promise<PaymentIntentRow | undefined> {
    const [row] = await this.#db.select().from(paymentIntents).where(where).limit(1);
    return row;
  }

  /**
   * Locks an order's payment intents until the caller's transaction ends (a confirmation of one of them waits) and
   * says whether one has succeeded, whichever the provider.
   */
  async lockHasSucceeded(tx: Transaction, orderId: string): Promise<boolean> {
    const rows = await tx
      .select({ status: paymentIntents.status })
      .from(paymentIntents)
      .where(eq(paymentIntents.orderId, orderId))
      .for('update');
    return rows.some((row) => row.status === 'succeeded');
  }

  /**
   * Stores the intent unless the order already has one for this provider (a concurrent request won the race):
   * the unique index decides, and the stored one is what everyone gets back.
   */
  async insertOrGet(row: typeof paymentIntents.$inferInsert): Promise<PaymentIntentRow> {
    await this.#db.insert(paymentIntents).values(row).onConflictDoNothing();
    const stored = await this.findForOrder(row.orderId, row.provider);
    if (!stored) throw new Error('payment intent vanished after insert');
    return stored;
  }

  async setStatus(tx: Executor, id: string, status: string): Promise<void> {
    await tx.update(paymentIntents).set({ status, updatedAt: new Date() }).where(eq(paymentIntents.id, id));
  }

  /** Succeeds an intent only once: a second confirmation of the same intent finds nothing to update. */
  async succeedOnce(tx: Transaction, id: string): Promise<boolean> {
    const rows = await tx
      .update(paymentIntents)
      .set({ status: 'succeeded', updatedAt: new Date() })
      .where(and(eq(paymentIntents.id, id), ne(paymentIntents.status, 'succeeded')))
      .returning({ id: paymentIntents.id });
    return rows.length > 0;
  }

  async recordAttempt(tx: Executor, attempt: typeof paymentAttempts.$inferInsert): Promise<void> {
    await tx.insert(paymentAttempts).values(attempt);
  }

  /** True the first time an event id is seen; false for a repeated delivery. */
  async claimWebhookEvent(tx: Transaction, provider: string, eventId: string): Promise<boolean> {
    const rows = await tx
      .insert(processedWebhookEvents)
      .values({ provider, eventId })
      .onConflictDoNothing()
      .returning({ eventId: processedWebhookEvents.eventId });
    return rows.length > 0;
  }
}
