import { and, asc, eq, gt, inArray, lt, ne, notInArray, type SQL, sql } from 'drizzle-orm';
import type { PaymentProviderName } from '../../../shared/enums.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { paymentAttempts, paymentIntentOrders, paymentIntents, processedWebhookEvents } from '../../db/schema.ts';

export type PaymentIntentRow = typeof paymentIntents.$inferSelect;
/** Which orders an intent pays, and how much of it each (ADR 011). */
export interface IntentOrderLink {
  orderId: string;
  amountCents: number;
}
type Executor = Database | Transaction;

/** Not cancelled: the intent a customer may still pay with (the partial unique indexes allow one per order/group). */
const live = ne(paymentIntents.status, 'canceled');

export class PaymentRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  /** The order's own live (not cancelled) intent. */
  async findForOrder(orderId: string, provider: PaymentProviderName): Promise<PaymentIntentRow | undefined> {
    return this.#findOne(and(eq(paymentIntents.orderId, orderId), eq(paymentIntents.provider, provider), live));
  }

  /** A group payment's live intent: the same set of orders asked again finds it by this key. */
  async findForGroup(groupKey: string, provider: PaymentProviderName): Promise<PaymentIntentRow | undefined> {
    return this.#findOne(and(eq(paymentIntents.groupKey, groupKey), eq(paymentIntents.provider, provider), live));
  }

  /**
   * How many intents for this order (or group) were cancelled: part of the provider's idempotency key for the next
   * one, which must be a new payment, not the cancelled one replayed by the provider's idempotency cache.
   */
  async retiredCount(
    payFor: { orderId: string } | { groupKey: string },
    provider: PaymentProviderName,
  ): Promise<number> {
    const which =
      'orderId' in payFor ? eq(paymentIntents.orderId, payFor.orderId) : eq(paymentIntents.groupKey, payFor.groupKey);
    const rows = await this.#db
      .select({ id: paymentIntents.id })
      .from(paymentIntents)
      .where(and(which, eq(paymentIntents.provider, provider), eq(paymentIntents.status, 'canceled')));
    return rows.length;
  }

  /**
   * Cancels an intent unless it has succeeded (or is already cancelled): true when this call cancelled it. A
   * confirmation holding the row (orders locked, then the intent) finishes first; its success is then seen here.
   */
  async cancelUnlessSucceeded(id: string): Promise<boolean> {
    const rows = await this.#db
      .update(paymentIntents)
      .set({ status: 'canceled', updatedAt: new Date() })
      .where(and(eq(paymentIntents.id, id), notInArray(paymentIntents.status, ['succeeded', 'canceled'])))
      .returning({ id: paymentIntents.id });
    return rows.length > 0;
  }

  /** Every intent that pays (or paid) this order, alone or in a group, for one provider or all. */
  async intentsForOrder(orderId: string, provider?: PaymentProviderName): Promise<PaymentIntentRow[]> {
    const linked = this.#db
      .select({ id: paymentIntentOrders.intentId })
      .from(paymentIntentOrders)
      .where(eq(paymentIntentOrders.orderId, orderId));
    const where = provider
      ? and(inArray(paymentIntents.id, linked), eq(paymentIntents.provider, provider))
      : inArray(paymentIntents.id, linked);
    return this.#db.select().from(paymentIntents).where(where);
  }

  /** The orders an intent pays, in id order. */
  async linkedOrders(intentId: string, db: Executor = this.#db): Promise<IntentOrderLink[]> {
    return db
      .select({ orderId: paymentIntentOrders.orderId, amountCents: paymentIntentOrders.amountCents })
      .from(paymentIntentOrders)
      .where(eq(paymentIntentOrders.intentId, intentId))
      .orderBy(asc(paymentIntentOrders.orderId));
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
    // Through the link table: a group payment that pays this order with others counts too.
    const linked = tx
      .select({ id: paymentIntentOrders.intentId })
      .from(paymentIntentOrders)
      .where(eq(paymentIntentOrders.orderId, orderId));
    const rows = await tx
      .select({ status: paymentIntents.status })
      .from(paymentIntents)
      .where(inArray(paymentIntents.id, linked))
      .orderBy(asc(paymentIntents.id))
      .for('update');
    return rows.some((row) => row.status === 'succeeded');
  }

  /**
   * Stores the intent and the orders it pays, unless the order (or the group) already has one for this provider (a
   * concurrent request won the race): the unique index decides, and the stored one is what everyone gets back.
   */
  async insertOrGet(
    row: typeof paymentIntents.$inferInsert,
    links: readonly IntentOrderLink[],
  ): Promise<PaymentIntentRow> {
    await this.#db.transaction(async (tx) => {
      const inserted = await tx
        .insert(paymentIntents)
        .values(row)
        .onConflictDoNothing()
        .returning({ id: paymentIntents.id });
      if (inserted.length === 0) return;
      await tx.insert(paymentIntentOrders).values(links.map((link) => ({ intentId: row.id, ...link })));
    });
    const stored = row.groupKey
      ? await this.findForGroup(row.groupKey, row.provider)
      : row.orderId
        ? await this.findForOrder(row.orderId, row.provider)
        : undefined;
    if (!stored) throw new Error('payment intent vanished after insert');
    return stored;
  }

  /**
   * Live intents made within `lookbackMs` that the reconciliation should ask the provider about now: untouched for
   * at least `graceMs` (a confirmation under way has had its chance), and for at least as long as they were old when
   * last asked, so a payment that stays open is asked after 1, 2, 4, 8… minutes rather than every period. Oldest
   * asked first.
   */
  async dueForReconciliation(
    provider: PaymentProviderName,
    options: { now: Date; graceMs: number; lookbackMs: number; limit: number },
  ): Promise<PaymentIntentRow[]> {
    const { now } = options;
    const graceEnd = new Date(now.getTime() - options.graceMs);
    return this.#db
      .select()
      .from(paymentIntents)
      .where(
        and(
          eq(paymentIntents.provider, provider),
          live,
          gt(paymentIntents.createdAt, new Date(now.getTime() - options.lookbackMs)),
          lt(paymentIntents.updatedAt, graceEnd),
          sql`${now.toISOString()}::timestamptz - ${paymentIntents.updatedAt} >= ${paymentIntents.updatedAt} - ${paymentIntents.createdAt}`,
        ),
      )
      .orderBy(asc(paymentIntents.updatedAt))
      .limit(options.limit);
  }

  /**
   * After the provider was asked about an open intent: its status as the provider said (never over a success or a
   * cancel recorded meanwhile), and `updated_at` moved on so that the next question waits (`dueForReconciliation`).
   */
  async recordChecked(id: string, status: string, now: Date): Promise<void> {
    await this.#db
      .update(paymentIntents)
      .set({
        status: sql`case when ${paymentIntents.status} in ('succeeded', 'canceled') then ${paymentIntents.status} else ${status} end`,
        updatedAt: now,
      })
      .where(eq(paymentIntents.id, id));
  }

  async setStatus(tx: Executor, id: string, status: string): Promise<void> {
    await tx.update(paymentIntents).set({ status, updatedAt: new Date() }).where(eq(paymentIntents.id, id));
  }

  /**
   * Succeeds an intent only once: a second confirmation of the same intent finds nothing to update, nor does one of
   * an intent cancelled meanwhile.
   */
  async succeedOnce(tx: Transaction, id: string): Promise<boolean> {
    const rows = await tx
      .update(paymentIntents)
      .set({ status: 'succeeded', updatedAt: new Date() })
      .where(and(eq(paymentIntents.id, id), notInArray(paymentIntents.status, ['succeeded', 'canceled'])))
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
