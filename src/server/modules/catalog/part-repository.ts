import { asc, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { parts } from '../../db/schema.ts';
import type { PartSort } from '../../../shared/schemas/parts.ts';

export type PartRow = typeof parts.$inferSelect;

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
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export class PartRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  async list(options: PartListOptions): Promise<{ rows: PartRow[]; total: number }> {
    const where = options.q
      ? or(ilike(parts.name, `%${escapeLike(options.q)}%`), ilike(parts.description, `%${escapeLike(options.q)}%`))
      : undefined;
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
    const [rows, totals] = await Promise.all([query, this.#db.select({ total: count() }).from(parts).where(where)]);
    return { rows, total: totals[0]?.total ?? 0 };
  }

  async findById(id: string): Promise<PartRow | undefined> {
    const rows = await this.#db.select().from(parts).where(eq(parts.id, id)).limit(1);
    return rows[0];
  }
}
