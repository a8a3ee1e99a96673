import { and, asc, count, desc, eq, getTableColumns, ilike, type SQL, sql } from 'drizzle-orm';
import type { PartSort } from '../../../shared/schemas/parts.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { type Page, withPage } from '../../db/paging.ts';
import { parts } from '../../db/schema.ts';

export type PartRow = typeof parts.$inferSelect;
type NewPartRow = typeof parts.$inferInsert;
export type PartChanges = Partial<
  Pick<PartRow, 'name' | 'description' | 'img' | 'priceCents' | 'availableQuantity' | 'minimumOrder'>
>;

/**
 * What a list of parts may be narrowed by. Each field needs its SQL condition in `conditionOf` below (the type
 * insists), and any field that is set sends the list down the counted path: only the empty filter may report the
 * whole catalogue's size.
 */
interface PartFilter {
  /** Searched for in name and description, case-insensitively, LIKE wildcards literally. */
  q?: string | undefined;
}

interface PartPage extends Page {
  sort?: PartSort | undefined;
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
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const conditionOf: { [K in keyof PartFilter]-?: (value: NonNullable<PartFilter[K]>) => SQL } = {
  q: (q) => {
    const pattern = `%${escapeLike(q)}%`;
    return sql`(${ilike(parts.name, pattern)} or ${ilike(parts.description, pattern)})`;
  },
};

/** The filter as one WHERE condition; undefined exactly when no field of the filter is set. */
function whereOf(filter: PartFilter): SQL | undefined {
  const conditions = (Object.keys(conditionOf) as (keyof PartFilter)[]).flatMap((key) => {
    const value = filter[key];
    return value === undefined ? [] : [conditionOf[key](value)];
  });
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/**
 * The number of parts in the WHOLE catalogue, reused for a few seconds. Every paged list reports X-Total-Count, and
 * count(*) over the whole table is the one part of an unfiltered list request that grows with the catalogue. It is
 * the answer for the empty filter only: a filtered list counts its own matches and must never fall back on this, or
 * it would announce the whole catalogue. This instance's own inserts and deletes forget it at once; another
 * instance's are seen within TTL_MS (it only sizes the page control).
 */
class UnfilteredCatalogueCount {
  static readonly TTL_MS = 5_000;
  readonly #countAll: () => Promise<number>;
  #cached: { value: number; expires: number } | undefined;

  constructor(countAll: () => Promise<number>) {
    this.#countAll = countAll;
  }

  async get(): Promise<number> {
    const cached = this.#cached;
    if (cached && cached.expires > Date.now()) return cached.value;
    const value = await this.#countAll();
    this.remember(value);
    return value;
  }

  /** An unfiltered list that saw the end of the catalogue knows its size exactly. */
  remember(value: number): void {
    this.#cached = { value, expires: Date.now() + UnfilteredCatalogueCount.TTL_MS };
  }

  forget(): void {
    this.#cached = undefined;
  }
}

export class PartRepository {
  readonly #db: Database;
  readonly #catalogueSize: UnfilteredCatalogueCount;
  constructor(db: Database) {
    this.#db = db;
    this.#catalogueSize = new UnfilteredCatalogueCount(() => this.#count(undefined));
  }

  /** One page of parts and how many parts match the filter in all (for X-Total-Count). */
  async list(filter: PartFilter, page: PartPage = {}): Promise<{ rows: PartRow[]; total: number }> {
    // Without a sort the spec's order is kept: oldest first, as the catalogue was added.
    const order = page.sort ? orderBy[page.sort] : oldestFirst;
    const offset = page.offset ?? 0;
    const where = whereOf(filter);
    if (where) return this.#listMatching(where, order, page.limit, offset);
    return this.#listWhole(order, page.limit, offset);
  }

  /** The unfiltered catalogue: the one list whose total may come from `UnfilteredCatalogueCount`. */
  async #listWhole(order: SQL[], limit: number | undefined, offset: number) {
    const rows = await withPage(
      this.#db
        .select()
        .from(parts)
        .orderBy(...order)
        .$dynamic(),
      { limit, offset },
    );
    // A page that is not full (and not past the end) already tells the total: skip the count query.
    // This covers the unpaged spec call and every short result; only full pages pay for count(*).
    const pageIsPartial = limit === undefined || rows.length < limit;
    if (pageIsPartial && (rows.length > 0 || offset === 0)) {
      const total = offset + rows.length;
      this.#catalogueSize.remember(total);
      return { rows, total };
    }
    return { rows, total: await this.#catalogueSize.get() };
  }

  /**
   * A filtered list counts its matches in the same pass, with a window function: a search must read every row
   * anyway (a substring match cannot use a btree index), so a second full scan for the total is saved.
   */
  async #listMatching(where: SQL, order: SQL[], limit: number | undefined, offset: number) {
    const found = await withPage(
      this.#db
        .select({ ...getTableColumns(parts), matches: sql<number>`(count(*) over ())::int` })
        .from(parts)
        .where(where)
        .orderBy(...order)
        .$dynamic(),
      { limit, offset },
    );
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

  async findById(id: string): Promise<PartRow | undefined> {
    const rows = await this.#db.select().from(parts).where(eq(parts.id, id)).limit(1);
    return rows[0];
  }

  async insert(values: NewPartRow): Promise<PartRow> {
    // Forgotten before and after: a list running meanwhile may have remembered the size from before the write.
    this.#catalogueSize.forget();
    const [row] = await this.#db.insert(parts).values(values).returning();
    this.#catalogueSize.forget();
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

  /**
   * Gives a deleted order's quantity back to its part, in the orders module's transaction (the orders module asks
   * through its `StockRelease` port; reserving stock is the one statement orders runs itself, see ADR 006).
   */
  async release(tx: Transaction, partId: string, quantity: number): Promise<void> {
    await tx
      .update(parts)
      .set({ availableQuantity: sql`${parts.availableQuantity} + ${quantity}`, updatedAt: new Date() })
      .where(eq(parts.id, partId));
  }

  /** True when a part was deleted. Orders keep their copy of name and price (part_id becomes null). */
  async delete(id: string): Promise<boolean> {
    this.#catalogueSize.forget();
    const rows = await this.#db.delete(parts).where(eq(parts.id, id)).returning({ id: parts.id });
    this.#catalogueSize.forget();
    return rows.length > 0;
  }
}
