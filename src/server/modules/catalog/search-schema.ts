import { sql } from 'drizzle-orm';
import { boolean, customType, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
    /** `parts.universal`: a vehicle named in a search keeps the parts that fit every vehicle (migration 0021). */
    universal: boolean('universal').notNull().default(false),
    /** `parts.created_at`: the tie-break of the relevance order, so a search is ranked from this table alone. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('part_search_document_idx').using('gin', t.document),
    index('part_search_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('part_search_part_numbers_idx').using('gin', t.partNumbers),
    index('part_search_model_ids_idx').using('gin', t.modelIds),
    index('part_search_universal_idx').on(t.partId).where(sql`${t.universal}`),
    index('part_search_brand_idx').on(t.brandId),
    index('part_search_category_idx').on(t.categoryId),
  ],
);

/**
 * The catalogue's words (migration 0021): every word of three letters or more in a part's name or description, in
 * lower case as written (not stemmed), so a search word the full text does not know can be matched as the words it
 * is probably a typo of ("brak" → "brake"), by trigrams. Only the database writes it, with `part_search`; a word is
 * never removed (a word no part has any more matches nothing, and the search checks that before it uses one).
 */
export const partSearchWords = pgTable(
  'part_search_words',
  {
    word: text('word').primaryKey(),
  },
  (t) => [index('part_search_words_trgm_idx').using('gin', t.word.op('gin_trgm_ops'))],
);
