import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, sqlList, updatedAt } from '../../db/columns.ts';

export const catalogImportStatuses = ['running', 'done', 'failed', 'cancelled'] as const;

export type CatalogImportStatus = (typeof catalogImportStatuses)[number];

/**
 * The catalog-transfer module (ADR 013): one CSV import, dry run or real, with its progress. The page reads
 * it to show rows done, errors so far and time left, so the progress survives a reload; Cancel sets
 * `cancel_requested`, which the run reads between batches. `errors` keeps the first errors (line, column, message);
 * `error_count` counts them all.
 */
export const catalogImports = pgTable(
  'catalog_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    status: text('status', { enum: catalogImportStatuses }).notNull().default('running'),
    dryRun: boolean('dry_run').notNull(),
    fileName: text('file_name').notNull().default(''),
    createdByEmail: text('created_by_email').notNull(),
    totalRows: integer('total_rows').notNull(),
    rowsDone: integer('rows_done').notNull().default(0),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    errorCount: integer('error_count').notNull().default(0),
    errors: jsonb('errors').notNull().default(sql`'[]'::jsonb`),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    /** Why a run failed as a whole (the file could not be read, the instance stopped). */
    message: text('message'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /**
     * The instance that runs it (INSTANCE_ID or DATA_DIR/instance-id): when that instance starts again, an import of
     * its own still marked running died with its previous life and is failed at once.
     */
    owner: text('owner'),
    /** Moved on by every batch: a running import that has not moved for minutes died with its server. */
    updatedAt: updatedAt(),
  },
  (t) => [
    check('catalog_imports_status_valid', sql`${t.status} in ${sqlList(catalogImportStatuses)}`),
    index('catalog_imports_created_at_idx').on(t.createdAt.desc()),
  ],
);
