import { and, asc, eq, getTableColumns, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { OrderStatus } from '../../../shared/enums.ts';
import type { Database } from '../../db/client.ts';
import { orders } from '../../db/schema.ts';

/** An order as export reads it; `cursor` is its created_at in the database's own (microsecond) precision. */
export type ExportOrderRow = typeof orders.$inferSelect & { cursor: string };

/** Orders of one status, placed in [from, to): what an admin's CSV export asks for. */
export interface OrderExportFilter {
  status?: OrderStatus | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** Where the previous page ended (the last row's `cursor` and id). */
export interface OrderExportCursor {
  cursor: string;
  id: string;
}

/**
 * The orders module's read for CSV export (ADR 013): pages in (created_at, id) order after a cursor, so an
 * export of any size reads one page at a time through `orders_created_at_idx` and never holds them all. The cursor
 * is created_at as text: a JavaScript Date keeps milliseconds only, and the column has microseconds.
 */
export class OrderExportRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  async page(
    filter: OrderExportFilter,
    after: OrderExportCursor | undefined,
    limit: number,
  ): Promise<ExportOrderRow[]> {
    const conditions: SQL[] = [];
    if (filter.status !== undefined) conditions.push(eq(orders.status, filter.status));
    if (filter.from !== undefined) conditions.push(gte(orders.createdAt, filter.from));
    if (filter.to !== undefined) conditions.push(lt(orders.createdAt, filter.to));
    if (after) {
      conditions.push(sql`(${orders.createdAt}, ${orders.id}) > (${after.cursor}::timestamptz, ${after.id}::uuid)`);
    }
    return this.#db
      .select({ ...getTableColumns(orders), cursor: sql<string>`${orders.createdAt}::text` })
      .from(orders)
      .where(and(...conditions))
      .orderBy(asc(orders.createdAt), asc(orders.id))
      .limit(limit);
  }
}
