import { and, count, desc, eq, notExists, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { orders, parts, paymentIntents } from '../../db/schema.ts';

export type OrderRow = typeof orders.$inferSelect;
type Executor = Database | Transaction;

export interface NewOrder {
  partId: string;
  userId: string;
  quantity: number;
  email: string;
  userName: string;
  address: string;
  phone: string;
}

export type PlaceResult =
  | { ok: true; order: OrderRow }
  | { ok: false; reason: 'part_not_found' }
  | { ok: false; reason: 'below_minimum'; minimumOrder: number }
  | { ok: false; reason: 'stock_out'; availableQuantity: number }
  | { ok: false; reason: 'too_large' };

/** Stripe's largest charge ($999,999.99), and well inside the integer column. */
export const MAX_ORDER_TOTAL_CENTS = 99_999_999;

/** node-postgres answers `{ rows }`, PGlite's drizzle driver the same; older drivers a bare array. */
function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}

export type DeleteResult = { ok: true } | { ok: false; reason: 'not_found' | 'paid' };

export class OrderRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  /**
   * Reserves the stock and writes the order in ONE statement (a data-modifying CTE, atomic like a transaction):
   * the conditional UPDATE takes the part's row lock, the WHERE is re-checked after any wait, so the stock can
   * never go below zero; and the lock is held for one statement, not for several round trips, so buyers of a
   * popular part queue as briefly as possible (PGlite runs one statement at a time anyway).
   */
  async place(input: NewOrder): Promise<PlaceResult> {
    const q = input.quantity;
    const result = await this.#db.execute<{ id: string }>(sql`
      with reserved as (
        update ${parts}
        set available_quantity = available_quantity - ${q}::int, updated_at = now()
        where id = ${input.partId}::uuid
          and available_quantity >= ${q}::int
          and minimum_order <= ${q}::int
          and price_cents::bigint * ${q}::int <= ${MAX_ORDER_TOTAL_CENTS}
        returning id, name, price_cents
      )
      insert into ${orders} (part_id, user_id, part_name, unit_price_cents, quantity, total_cents, email, user_name, address, phone)
      select id, ${input.userId}::uuid, name, price_cents, ${q}::int, price_cents * ${q}::int,
             ${input.email}::text, ${input.userName}::text, ${input.address}::text, ${input.phone}::text
      from reserved
      returning id`);
    const id = rowsOf<{ id: string }>(result)[0]?.id;
    if (id) {
      const order = await this.findById(id);
      if (!order) throw new Error('placed order not found');
      return { ok: true, order };
    }
    const [current] = await this.#db
      .select({
        minimumOrder: parts.minimumOrder,
        availableQuantity: parts.availableQuantity,
        priceCents: parts.priceCents,
      })
      .from(parts)
      .where(eq(parts.id, input.partId));
    if (!current) return { ok: false, reason: 'part_not_found' };
    if (q < current.minimumOrder) return { ok: false, reason: 'below_minimum', minimumOrder: current.minimumOrder };
    if (current.priceCents * q > MAX_ORDER_TOTAL_CENTS) return { ok: false, reason: 'too_large' };
    return { ok: false, reason: 'stock_out', availableQuantity: current.availableQuantity };
  }

  async findById(id: string, db: Executor = this.#db): Promise<OrderRow | undefined> {
    const rows = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
    return rows[0];
  }

  async listByUser(userId: string): Promise<OrderRow[]> {
    return this.#db
      .select()
      .from(orders)
      .where(eq(orders.userId, userId))
      .orderBy(desc(orders.createdAt), desc(orders.id));
  }

  /** Orders placed under an email (admin view of one customer), whatever its case. */
  async listByEmail(email: string): Promise<OrderRow[]> {
    return this.#db
      .select()
      .from(orders)
      .where(eq(sql`lower(${orders.email})`, email.trim().toLowerCase()))
      .orderBy(desc(orders.createdAt), desc(orders.id));
  }

  async listAll(options: { limit?: number | undefined; offset?: number | undefined }) {
    let query = this.#db.select().from(orders).orderBy(desc(orders.createdAt), desc(orders.id)).$dynamic();
    if (options.limit !== undefined) query = query.limit(options.limit);
    if (options.offset !== undefined) query = query.offset(options.offset);
    const [rows, totals] = await Promise.all([query, this.#db.select({ total: count() }).from(orders)]);
    return { rows, total: totals[0]?.total ?? 0 };
  }

  /** Deletes an unpaid order and gives its quantity back to the part, in one transaction. */
  async deleteUnpaid(id: string): Promise<DeleteResult> {
    return this.#db.transaction(async (tx) => {
      // A card payment that already went through (order not yet marked paid) keeps its order: deleting it would
      // release the stock and, by cascade, erase the only record of the charge.
      const charged = tx
        .select({ one: sql`1` })
        .from(paymentIntents)
        .where(and(eq(paymentIntents.orderId, orders.id), eq(paymentIntents.status, 'succeeded')));
      const [deleted] = await tx
        .delete(orders)
        .where(and(eq(orders.id, id), eq(orders.paid, false), notExists(charged)))
        .returning({ partId: orders.partId, quantity: orders.quantity });
      if (!deleted) {
        const existing = await this.findById(id, tx);
        return { ok: false, reason: existing ? 'paid' : 'not_found' } as const;
      }
      if (deleted.partId) {
        await tx
          .update(parts)
          .set({ availableQuantity: sql`${parts.availableQuantity} + ${deleted.quantity}`, updatedAt: new Date() })
          .where(eq(parts.id, deleted.partId));
      }
      return { ok: true } as const;
    });
  }

  /**
   * Marks an order paid only while it is still unpaid (so two confirmations cannot both win). Runs inside the
   * caller's transaction so the webhook can record its event id in the same one.
   */
  async markPaid(tx: Executor, id: string, transactionId: string): Promise<OrderRow | undefined> {
    const now = new Date();
    const [row] = await tx
      .update(orders)
      .set({ paid: true, status: 'paid', transactionId, paidAt: now, updatedAt: now })
      .where(and(eq(orders.id, id), eq(orders.paid, false)))
      .returning();
    return row;
  }

  async markShipped(id: string): Promise<OrderRow | undefined> {
    const now = new Date();
    const [row] = await this.#db
      .update(orders)
      .set({ status: 'shipped', shippedAt: now, updatedAt: now })
      .where(and(eq(orders.id, id), eq(orders.status, 'paid')))
      .returning();
    return row;
  }
}
