import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { partPhotos } from '../../db/schema.ts';

export type PartPhotoRow = typeof partPhotos.$inferSelect;
export type NewPartPhoto = Omit<typeof partPhotos.$inferInsert, 'id' | 'createdAt'>;

/** The media module's one table (ADR 006, ADR 013): the only SQL over `part_photos`. */
export class PartPhotoRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.#db.transaction(work);
  }

  /** A part's photos in order, the main one first. */
  listOf(partId: string, db: Database | Transaction = this.#db): Promise<PartPhotoRow[]> {
    return db
      .select()
      .from(partPhotos)
      .where(eq(partPhotos.partId, partId))
      .orderBy(asc(partPhotos.position), asc(partPhotos.createdAt));
  }

  async insert(tx: Transaction, photo: NewPartPhoto): Promise<void> {
    await tx.insert(partPhotos).values(photo);
  }

  /** Positions 0, 1, 2… in the order given (ids of this part's photos). */
  async setOrder(tx: Transaction, partId: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const cases = sql.join(
      ids.map((id, index) => sql`when ${id}::uuid then ${index}::int`),
      sql` `,
    );
    await tx
      .update(partPhotos)
      .set({ position: sql`case ${partPhotos.id} ${cases} else ${partPhotos.position} end` })
      .where(eq(partPhotos.partId, partId));
  }

  async delete(tx: Transaction, partId: string, photoId: string): Promise<PartPhotoRow | undefined> {
    const [row] = await tx
      .delete(partPhotos)
      .where(and(eq(partPhotos.partId, partId), eq(partPhotos.id, photoId)))
      .returning();
    return row;
  }

  /** Which of these storage keys some photo row names. */
  async keysInUse(storageKeys: readonly string[]): Promise<Set<string>> {
    if (storageKeys.length === 0) return new Set();
    const rows = await this.#db
      .selectDistinct({ key: partPhotos.storageKey })
      .from(partPhotos)
      .where(inArray(partPhotos.storageKey, [...storageKeys]));
    return new Set(rows.map((row) => row.key));
  }

  /** Another photo row (of any part) still names these files. */
  async keyInUse(storageKey: string, exceptId?: string): Promise<boolean> {
    const rows = await this.#db
      .select({ id: partPhotos.id })
      .from(partPhotos)
      .where(
        exceptId
          ? and(eq(partPhotos.storageKey, storageKey), ne(partPhotos.id, exceptId))
          : eq(partPhotos.storageKey, storageKey),
      )
      .limit(1);
    return rows.length > 0;
  }
}
