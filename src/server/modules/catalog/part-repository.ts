import { asc, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { PartSort } from '../../../shared/schemas/parts.ts';
import type { Database } from '../../db/client.ts';
import { parts } from '../../db/schema.ts';

export type PartRow = typeof parts.$inferSelect;
export type NewPartRow = typeof parts.$inferInsert;
export type PartChanges = Partial<
  Pick<PartRow, 'name' | 'description' | 'img' | 'priceCents' | 'availableQuantity' | 'minimumOrder'>
>;

export interface PartListOptions {
  q?: string | undefined;
  sort?: PartSort | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

const orderBy: Record<PartSort, SQL[]> = {
  newest: [desc(parts.createdAt), desc(parts.id)],
  price_asc: [asc(parts.priceCents), asc(parts.id)],
  price_desc: [desc(parts.priceCents), desc(parts.id)],
  name: [asc(parts.name), asc(parts.id)],
};

/** LIKE wildcards typed by a shopper are searched for literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export class PartRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  async list(options: PartListOptions): Promise<{ rows: PartRow[]; total: number }> {
    const pattern = options.q ? `%${escapeLike(options.q)}%` : undefined;
    const where = pattern ? or(ilike(parts.name, pattern), ilike(parts.description, pattern)) : undefined;
    // Without a sort the spec's order is kept: oldest first, as the catalogue was added.
    const order = options.sort ? orderBy[options.sort] : [asc(parts.createdAt), asc(parts.id)];
    let query = this.#db
      .select()
      .from(parts)
      .where(where)
      .orderBy(...order)
      .$dynamic();
    if (options.limit !== undefined) query = query.limit(options.limit);
    if (options.offset !== undefined) query = query.offset(options.offset);
    const rows = await query;
    const offset = options.offset ?? 0;
    // A page that is not full (and not past the end) already tells the total: skip the count query.
    // This covers the unpaged spec call and every short result; only full pages pay for count(*).
    const pageIsPartial = options.limit === undefined || rows.length < options.limit;
    if (pageIsPartial && (rows.length > 0 || offset === 0)) return { rows, total: offset + rows.length };
    const [totals] = await this.#db.select({ total: count() }).from(parts).where(where);
    return { rows, total: totals?.total ?? 0 };
  }

  async findById(id: string): Promise<PartRow | undefined> {
    const rows = await this.#db.select().from(parts).where(eq(parts.id, id)).limit(1);
    return rows[0];
  }

  async insert(values: NewPartRow): Promise<PartRow> {
    const [row] = await this.#db.insert(parts).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  /** Changes only the given columns; undefined means "leave as it is". Undefined result: no such part. */
  async update(id: string, changes: PartChanges): Promise<PartRow | undefined> {
    const [row] = await this.#db
      .update(parts)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(parts.id, id))
      .returning();
    return row;
  }

  /** True when a part was deleted. Orders keep their copy of name and price (part_id becomes null). */
  async delete(id: string): Promise<boolean> {
    const rows = await this.#db.delete(parts).where(eq(parts.id, id)).returning({ id: parts.id });
    return rows.length > 0;
  }
}
