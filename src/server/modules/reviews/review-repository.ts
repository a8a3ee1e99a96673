import { desc } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { reviews } from '../../db/schema.ts';

export type ReviewRow = typeof reviews.$inferSelect;
type NewReviewRow = typeof reviews.$inferInsert;

export class ReviewRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  async listNewestFirst(limit: number): Promise<ReviewRow[]> {
    return this.#db.select().from(reviews).orderBy(desc(reviews.createdAt), desc(reviews.id)).limit(limit);
  }

  async insert(values: NewReviewRow): Promise<ReviewRow> {
    const [row] = await this.#db.insert(reviews).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }
}
