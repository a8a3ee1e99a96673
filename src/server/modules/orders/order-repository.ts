import { and, count, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { orders, parts } from '../../db/schema.ts';

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
  | { ok: false; reason: 'stock_out'; availableQuantity: number };

export type DeleteResult = { ok: true } | { ok: false; reason: 'not_found' | 'paid' };

export class OrderRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  /**
   * Reserves the stock and writes the order in one transaction. The reservation is a single conditional UPDATE:
   * the row lock (PostgreSQL) or PGlite's one-at-a-time transactions make concurrent buyers queue on the part's
   * row, and the WHERE is re-checked after the wait, so the stock can never go below zero.
   */
  async place(input: NewOrder): Promise<PlaceResult> {
    return this.#db.transaction(async (tx) => {
      const reserved = await tx
        .update(parts)
        .set({ availableQuantity: sql`${parts.availableQuantity} - ${input.quantity}`, updatedAt: new Date() })
        .where(
          and(
            eq(parts.id, input.partId),
            gte(parts.availableQuantity, input.quantity),
            lte(parts.minimumOrder, input.quantity),
          ),
        )
        .returning({ name: parts.name, priceCents: parts.priceCents });
      const part = reserved[0];
      if (!part) {
        const [current] = await tx
          .select({ minimumOrder: parts.minimumOrder, availableQuantity: parts.availableQuantity })
          .from(parts)
          .where(eq(parts.id, input.partId));
        if (!current) return { ok: false, reason: 'part_not_found' } as const;
        if (input.quantity < current.minimumOrder) {
          return { ok: false, reason: 'below_minimum', minimumOrder: current.minimumOrder } as const;
        }
        return { ok: false, reason: 'stock_out', availableQuantity: current.availableQuantity } as const;
      }
      const [order] = await tx
        .insert(orders)
        .values({
          partId: input.partId,
          userId: input.userId,
          partName: part.name,
          unitPriceCents: part.priceCents,
          quantity: input.quantity,
          totalCents: part.priceCents * input.quantity,
          email: input.email,
          userName: input.userName,
          address: input.address,
          phone: input.phone,
        })
        .returning();
      if (!order) throw new Error('order insert returned nothing');
      return { ok: true, order } as const;
    });
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
      const [deleted] = await tx
        .delete(orders)
        .where(and(eq(orders.id, id), eq(orders.paid, false)))
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
