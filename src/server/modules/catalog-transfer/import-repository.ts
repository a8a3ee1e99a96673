import { and, count, desc, eq, getTableColumns, lt, notInArray, or, sql } from 'drizzle-orm';
import { CATALOG_IMPORT_KEPT_ERRORS, type ImportError } from '../../../shared/schemas/catalog-transfer.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { type CatalogImportStatus, catalogImports } from '../../db/schema.ts';

export type ImportRecord = typeof catalogImports.$inferSelect;
/** An import as the history lists it: everything but its kept errors. */
export type ImportSummaryRecord = Omit<ImportRecord, 'errors'>;

const { errors: _errors, ...summaryColumns } = getTableColumns(catalogImports);

/** What one batch adds to an import's progress. */
export interface BatchProgress {
  rows: number;
  created: number;
  updated: number;
  errors: readonly ImportError[];
}

/** The catalog-transfer module's own table, `catalog_imports` (ADR 013). */
export class ImportRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  async create(values: {
    dryRun: boolean;
    fileName: string;
    createdByEmail: string;
    totalRows: number;
    owner: string;
  }): Promise<ImportRecord> {
    const [row] = await this.#db.insert(catalogImports).values(values).returning();
    if (!row) throw new Error('import not saved');
    return row;
  }

  async find(id: string): Promise<ImportRecord | undefined> {
    const [row] = await this.#db.select().from(catalogImports).where(eq(catalogImports.id, id)).limit(1);
    return row;
  }

  async recent(limit: number): Promise<ImportRecord[]> {
    return this.#db.select().from(catalogImports).orderBy(desc(catalogImports.createdAt)).limit(limit);
  }

  /** A page of the history, newest first (through `catalog_imports_created_at_idx`), and how many there are. */
  async history(page: { limit: number; offset: number }): Promise<{ rows: ImportSummaryRecord[]; total: number }> {
    const [rows, [counted]] = await Promise.all([
      this.#db
        .select(summaryColumns)
        .from(catalogImports)
        .orderBy(desc(catalogImports.createdAt), desc(catalogImports.id))
        .limit(page.limit)
        .offset(page.offset),
      this.#db.select({ total: count() }).from(catalogImports),
    ]);
    return { rows, total: counted?.total ?? 0 };
  }

  /**
   * Adds a batch's counts and errors (the first CATALOG_IMPORT_KEPT_ERRORS are kept), in the batch's own transaction
   * when it wrote; answers whether Cancel was pressed meanwhile.
   */
  async progress(id: string, batch: BatchProgress, tx?: Transaction): Promise<{ cancelRequested: boolean }> {
    const [row] = await (tx ?? this.#db)
      .update(catalogImports)
      .set({
        updatedAt: sql`now()`,
        rowsDone: sql`${catalogImports.rowsDone} + ${batch.rows}`,
        created: sql`${catalogImports.created} + ${batch.created}`,
        updated: sql`${catalogImports.updated} + ${batch.updated}`,
        errorCount: sql`${catalogImports.errorCount} + ${batch.errors.length}`,
        errors:
          batch.errors.length === 0
            ? sql`${catalogImports.errors}`
            : sql`case when jsonb_array_length(${catalogImports.errors}) >= ${CATALOG_IMPORT_KEPT_ERRORS} then ${catalogImports.errors} else ${catalogImports.errors} || ${JSON.stringify(batch.errors.slice(0, CATALOG_IMPORT_KEPT_ERRORS))}::jsonb end`,
      })
      .where(eq(catalogImports.id, id))
      .returning({ cancelRequested: catalogImports.cancelRequested });
    return { cancelRequested: row?.cancelRequested ?? true };
  }

  async finish(id: string, status: Exclude<CatalogImportStatus, 'running'>, message: string | null = null) {
    await this.#db
      .update(catalogImports)
      .set({ status, message, finishedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(catalogImports.id, id), eq(catalogImports.status, 'running')));
  }

  /**
   * Fails the imports still marked running that no live run holds: those of `owner` (this instance, starting: they
   * died with its previous life) and any whose last batch is older than `staleBefore` (their server is gone; a live
   * run moves on with every batch). `keep`: this process's own runs. Answers the ids failed.
   */
  async failAbandoned(options: {
    owner: string;
    staleBefore: Date;
    keep: readonly string[];
    message: string;
  }): Promise<string[]> {
    const rows = await this.#db
      .update(catalogImports)
      .set({ status: 'failed', message: options.message, finishedAt: sql`now()`, updatedAt: sql`now()` })
      .where(
        and(
          eq(catalogImports.status, 'running'),
          or(eq(catalogImports.owner, options.owner), lt(catalogImports.updatedAt, options.staleBefore)),
          options.keep.length > 0 ? notInArray(catalogImports.id, [...options.keep]) : undefined,
        ),
      )
      .returning({ id: catalogImports.id });
    return rows.map((row) => row.id);
  }

  /** False: no such import. A finished import is left as it is. */
  async requestCancel(id: string): Promise<boolean> {
    const rows = await this.#db
      .update(catalogImports)
      .set({ cancelRequested: sql`${catalogImports.cancelRequested} or ${catalogImports.status} = 'running'` })
      .where(eq(catalogImports.id, id))
      .returning({ id: catalogImports.id });
    return rows.length > 0;
  }
}
