import { asc, count, gt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { parts } from '../../db/schema.ts';

/** The catalogue's side of the sitemap (the seo module's SitemapPartSource): part ids in primary-key order. */
export class PartSitemapRepository {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async countParts(): Promise<number> {
    const [row] = await this.#db.select({ n: count() }).from(parts);
    return row?.n ?? 0;
  }

  async partsAfter(afterId: string | undefined, limit: number): Promise<{ id: string; updatedAt: Date }[]> {
    return this.#db
      .select({ id: parts.id, updatedAt: parts.updatedAt })
      .from(parts)
      .where(afterId ? gt(parts.id, afterId) : undefined)
      .orderBy(asc(parts.id))
      .limit(limit);
  }

  async pageEnds(size: number): Promise<string[]> {
    const numbered = this.#db
      .select({ id: parts.id, n: sql<number>`row_number() over (order by ${parts.id})`.as('n') })
      .from(parts)
      .as('numbered');
    const rows = await this.#db
      .select({ id: numbered.id })
      .from(numbered)
      .where(sql`${numbered.n} % ${size} = 0`)
      .orderBy(asc(numbered.id));
    return rows.map((row) => row.id);
  }
}
