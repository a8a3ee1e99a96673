import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import { MAX_ORDER_TOTAL_CENTS, type OrderablePart } from '../../../shared/order-rules.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { type Page, withPage } from '../../db/paging.ts';
import { orders, parts } from '../../db/schema.ts';

export type OrderRow = typeof orders.$inferSelect;
type Executor = Database | Transaction;

interface NewOrder {
  partId: string;
  userId: string;
  quantity: number;
  email: string;
  userName: string;
  address: string;
  phone: string;
}

/** Placed, or refused with the part as the statement found it (undefined: there is no such part). */
type PlaceResult = { ok: true; order: OrderRow } | { ok: false; part: OrderablePart | undefined };

/** node-postgres answers `{ rows }`, PGlite's drizzle driver the same; older drivers a bare array. */
function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}

interface PlaceRow {
  order_id: string | null;
  minimum_order: number;
  available_quantity: number;
  price_cents: number;
}

/** The orders table. It writes no other module's table, but for the one exception of `place` (ADR 006). */
export class OrderRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  /**
   * THE documented exception to "each module writes only its own tables" (ADR 006): the catalogue's stock is
   * reserved and the order written in ONE statement (data-modifying CTEs, atomic like a transaction). The
   * conditional UPDATE takes the part's row lock and its WHERE is re-checked after any wait, so stock never goes
   * below zero; the lock is held for one statement, not for several round trips, so buyers of a popular part queue
   * as briefly as possible. The WHERE is the atomic guard of the order rule in src/shared/order-rules.ts (change
   * both together); the same statement reads the part's state so that a refusal can be explained by that rule.
   */
  async place(input: NewOrder, db: Executor = this.#db): Promise<PlaceResult> {
    const q = input.quantity;
    const result = await db.execute(sql`
      with part as (
        select minimum_order, available_quantity, price_cents from ${parts} where id = ${input.partId}::uuid
      ),
      reserved as (
        update ${parts}
        set available_quantity = available_quantity - ${q}::int, updated_at = now()
        where id = ${input.partId}::uuid
          and available_quantity >= ${q}::int
          and minimum_order <= ${q}::int
          and price_cents::bigint * ${q}::int <= ${MAX_ORDER_TOTAL_CENTS}
        returning id, name, price_cents
      ),
      placed as (
        insert into ${orders} (part_id, user_id, part_name, unit_price_cents, quantity, total_cents, email, user_name, address, phone)
        select id, ${input.userId}::uuid, name, price_cents, ${q}::int, price_cents * ${q}::int,
               ${input.email}::text, ${input.userName}::text, ${input.address}::text, ${input.phone}::text
        from reserved
        returning id
      )
      select (select id from placed) as order_id, minimum_order, available_quantity, price_cents from part`);
    const [row] = rowsOf<PlaceRow>(result);
    if (!row) return { ok: false, part: undefined };
    if (row.order_id) {
      const order = await this.findById(row.order_id, db);
      if (!order) throw new Error('placed order not found');
      return { ok: true, order };
    }
    const part = {
      minimumOrder: Number(row.minimum_order),
      availableQuantity: Number(row.available_quantity),
      priceCents: Number(row.price_cents),
    };
    return { ok: false, part };
  }

  async findById(id: string, db: Executor = this.#db): Promise<OrderRow | undefined> {
    const rows = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
    return rows[0];
  }

  /** One page of a buyer's orders, newest first, and how many they have in all. */
  async listByUser(userId: string, page: Page): Promise<{ rows: OrderRow[]; total: number }> {
    return this.#listWhere(eq(orders.userId, userId), page);
  }

  /** Orders placed under an email (admin view of one customer), whatever its case; paged like listByUser. */
  async listByEmail(email: string, page: Page): Promise<{ rows: OrderRow[]; total: number }> {
    return this.#listWhere(eq(sql`lower(${orders.email})`, email.trim().toLowerCase()), page);
  }

  async #listWhere(where: SQL, page: Page): Promise<{ rows: OrderRow[]; total: number }> {
    const query = withPage(
      this.#db.select().from(orders).where(where).orderBy(desc(orders.createdAt), desc(orders.id)).$dynamic(),
      page,
    );
    const [rows, totals] = await Promise.all([query, this.#db.select({ total: count() }).from(orders).where(where)]);
    return { rows, total: totals[0]?.total ?? 0 };
  }

  async listAll(page: Page) {
    const query = withPage(
      this.#db.select().from(orders).orderBy(desc(orders.createdAt), desc(orders.id)).$dynamic(),
      page,
    );
    const [rows, totals] = await Promise.all([query, this.#db.select({ total: count() }).from(orders)]);
    return { rows, total: totals[0]?.total ?? 0 };
  }

  /**
   * Locks an unpaid order's row for the caller's transaction (a payment confirming meanwhile waits for it) and
   * answers what its deletion gives back to the catalogue; undefined when it is paid or gone.
   */
  async lockUnpaid(tx: Transaction, id: string): Promise<Pick<OrderRow, 'partId' | 'quantity'> | undefined> {
    const [row] = await tx
      .select({ partId: orders.partId, quantity: orders.quantity })
      .from(orders)
      .where(and(eq(orders.id, id), eq(orders.paid, false)))
      .for('update');
    return row;
  }

  async delete(tx: Transaction, id: string): Promise<void> {
    await tx.delete(orders).where(eq(orders.id, id));
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
