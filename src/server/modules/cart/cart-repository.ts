import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { cartItems } from '../../db/schema.ts';

type Executor = Database | Transaction;
export type CartItemRow = typeof cartItems.$inferSelect;

/** The cart module's one table, `cart_items` (ADR 011). */
export class CartRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  async list(userId: string, db: Executor = this.#db): Promise<CartItemRow[]> {
    return db.select().from(cartItems).where(eq(cartItems.userId, userId)).orderBy(asc(cartItems.addedAt));
  }

  async count(userId: string): Promise<number> {
    const [row] = await this.#db
      .select({ n: sql<number>`count(*)::int` })
      .from(cartItems)
      .where(eq(cartItems.userId, userId));
    return Number(row?.n ?? 0);
  }

  /** Sets a line's quantity (adding the line when the part is not in the cart yet; it keeps its place if it is). */
  async set(userId: string, partId: string, quantity: number, db: Executor = this.#db): Promise<void> {
    await db
      .insert(cartItems)
      .values({ userId, partId, quantity })
      .onConflictDoUpdate({ target: [cartItems.userId, cartItems.partId], set: { quantity } });
  }

  async remove(userId: string, partId: string): Promise<boolean> {
    const rows = await this.#db
      .delete(cartItems)
      .where(and(eq(cartItems.userId, userId), eq(cartItems.partId, partId)))
      .returning({ partId: cartItems.partId });
    return rows.length > 0;
  }

  /**
   * Takes the caller's cart lines in the checkout's transaction, in ONE statement: locks them in part-id order and
   * deletes them, answering them in part-id order (the order in which checkout then reserves the parts' stock, so
   * two checkouts never wait on each other in a circle). A refused checkout rolls its transaction back and the cart
   * is as it was. A second checkout of the same cart waits on the locks here and then finds the lines gone.
   */
  async takeLines(tx: Transaction, userId: string): Promise<{ partId: string; quantity: number }[]> {
    const result = await tx.execute(sql`
      with line as (
        select part_id from ${cartItems} where user_id = ${userId}::uuid order by part_id for update
      )
      delete from ${cartItems} item using line
      where item.user_id = ${userId}::uuid and item.part_id = line.part_id
      returning item.part_id, item.quantity`);
    return rowsOf<{ part_id: string; quantity: number }>(result)
      .map((row) => ({ partId: row.part_id, quantity: Number(row.quantity) }))
      .sort((a, b) => (a.partId < b.partId ? -1 : a.partId > b.partId ? 1 : 0));
  }
}
