import { asc, count, desc, eq, getTableColumns, ilike, or, type SQL, sql } from 'drizzle-orm';
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

/**
 * Each order matches an index exactly, NULLS placement included: Postgres does not use NOT NULL to relax it, and a
 * mismatch (plain DESC is NULLS FIRST, the index is DESC NULLS LAST) turns a 24-row index scan into a full sort.
 * `parts_created_at_idx` is (created_at DESC NULLS LAST, id DESC NULLS LAST); scanned backwards it gives the
 * catalogue order (ASC NULLS FIRST).
 */
const newestFirst = [sql`${parts.createdAt} desc nulls last`, sql`${parts.id} desc nulls last`];
const oldestFirst = [sql`${parts.createdAt} asc nulls first`, sql`${parts.id} asc nulls first`];
const orderBy: Record<PartSort, SQL[]> = {
  newest: newestFirst,
  price_asc: [asc(parts.priceCents), asc(parts.id)],
  price_desc: [desc(parts.priceCents), desc(parts.id)],
  name: [asc(parts.name), asc(parts.id)],
};

/** LIKE wildcards typed by a shopper are searched for literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * How long the unfiltered catalogue size is reused. Every paged list reports X-Total-Count, and count(*) over the
 * whole table is the one part of a list request that grows with the catalogue; this instance's own writes refresh
 * it at once, another instance's within this many milliseconds (it only sizes the page control).
 */
const TOTAL_TTL_MS = 5_000;

export class PartRepository {
  readonly #db: Database;
  #catalogueSize: { value: number; expires: number } | undefined;
  constructor(db: Database) {
    this.#db = db;
  }

  async list(options: PartListOptions): Promise<{ rows: PartRow[]; total: number }> {
    // Without a sort the spec's order is kept: oldest first, as the catalogue was added.
    const order = options.sort ? orderBy[options.sort] : oldestFirst;
    const offset = options.offset ?? 0;
    if (options.q) return this.#search(options.q, order, options.limit, offset);

    let query = this.#db
      .select()
      .from(parts)
      .orderBy(...order)
      .$dynamic();
    if (options.limit !== undefined) query = query.limit(options.limit);
    if (offset > 0) query = query.offset(offset);
    const rows = await query;
    // A page that is not full (and not past the end) already tells the total: skip the count query.
    // This covers the unpaged spec call and every short result; only full pages pay for count(*).
    const pageIsPartial = options.limit === undefined || rows.length < options.limit;
    if (pageIsPartial && (rows.length > 0 || offset === 0)) {
      const total = offset + rows.length;
      this.#rememberCatalogueSize(total);
      return { rows, total };
    }
    return { rows, total: await this.#countCatalogue() };
  }

  /**
   * A search must read every row anyway (a substring match cannot use a btree index), so the total is counted in
   * the same pass with a window function instead of a second full scan.
   */
  async #search(
    q: string,
    order: SQL[],
    limit: number | undefined,
    offset: number,
  ): Promise<{ rows: PartRow[]; total: number }> {
    const pattern = `%${escapeLike(q)}%`;
    const where = or(ilike(parts.name, pattern), ilike(parts.description, pattern));
    let query = this.#db
      .select({ ...getTableColumns(parts), matches: sql<number>`(count(*) over ())::int` })
      .from(parts)
      .where(where)
      .orderBy(...order)
      .$dynamic();
    if (limit !== undefined) query = query.limit(limit);
    if (offset > 0) query = query.offset(offset);
    const found = await query;
    const rows = found.map(({ matches: _matches, ...row }) => row);
    const first = found[0];
    if (first) return { rows, total: Number(first.matches) };
    // Past the last page the window has no row to report on.
    return { rows, total: offset === 0 ? 0 : await this.#count(where) };
  }

  async #count(where: SQL | undefined): Promise<number> {
    const [row] = await this.#db.select({ total: count() }).from(parts).where(where);
    return row?.total ?? 0;
  }

  async #countCatalogue(): Promise<number> {
    const cached = this.#catalogueSize;
    if (cached && cached.expires > Date.now()) return cached.value;
    const total = await this.#count(undefined);
    this.#rememberCatalogueSize(total);
    return total;
  }

  #rememberCatalogueSize(value: number): void {
    this.#catalogueSize = { value, expires: Date.now() + TOTAL_TTL_MS };
  }

  async findById(id: string): Promise<PartRow | undefined> {
    const rows = await this.#db.select().from(parts).where(eq(parts.id, id)).limit(1);
    return rows[0];
  }

  async insert(values: NewPartRow): Promise<PartRow> {
    this.#catalogueSize = undefined;
    const [row] = await this.#db.insert(parts).values(values).returning();
    this.#catalogueSize = undefined;
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
    this.#catalogueSize = undefined;
    const rows = await this.#db.delete(parts).where(eq(parts.id, id)).returning({ id: parts.id });
    this.#catalogueSize = undefined;
    return rows.length > 0;
  }
}
