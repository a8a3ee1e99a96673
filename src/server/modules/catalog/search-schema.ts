import { sql } from 'drizzle-orm';
import { customType, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** PostgreSQL's full-text document type; copied by the database from `parts.search_vector`, never written by the app. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * The search table (ADR 025): one narrow row per part with what a search's candidates are chosen by, each column
 * indexed, so choosing them reads neither the wide `parts` rows nor the fitment rows. Only the database writes it:
 * triggers of migration 0017 copy a part's columns on every insert and on every change of a searched column, and
 * the models it is fitted to on every change of its fitment rows, in the writing statement's transaction (so every
 * write path, in any module, keeps it current). Its `part_id` references `parts` ON DELETE CASCADE (declared in the
 * migration: naming `parts` here would import schema.ts, which re-exports this file).
 */
export const partSearch = pgTable(
  'part_search',
  {
    partId: uuid('part_id').primaryKey(),
    /** `parts.search_vector`: name (weight A), MPN (B), description (C). */
    document: tsvector('document').notNull(),
    name: text('name').notNull(),
    /** MPN and OEM numbers as search compares them (`normalizePartNumber`). */
    partNumbers: text('part_numbers').array().notNull(),
    brandId: uuid('brand_id'),
    categoryId: uuid('category_id'),
    /** The vehicle models its fitment rows name (any year, any variant), so a make or model word is one index probe. */
    modelIds: uuid('model_ids').array().notNull().default(sql`'{}'::uuid[]`),
    /** `parts.created_at`: the tie-break of the relevance order, so a search is ranked from this table alone. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('part_search_document_idx').using('gin', t.document),
    index('part_search_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('part_search_part_numbers_idx').using('gin', t.partNumbers),
    index('part_search_model_ids_idx').using('gin', t.modelIds),
    index('part_search_brand_idx').on(t.brandId),
    index('part_search_category_idx').on(t.categoryId),
  ],
);
