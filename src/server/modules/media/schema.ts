import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns.ts';
import { parts } from '../catalog/schema.ts';

/**
 * The media module (ADR 013): a part's uploaded photos, in the owner's order; the first is the main one,
 * whose URL is also the part's `img`. `storage_key` names the stored WebP files (content-hashed, one per width in
 * `widths`); the bytes live in the photo storage (UPLOADS_DIR), never in the database.
 */
export const partPhotos = pgTable(
  'part_photos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    partId: uuid('part_id')
      .notNull()
      .references(() => parts.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    storageKey: text('storage_key').notNull(),
    /** The widths stored, ascending (e.g. 320, 640, 1280; fewer for a small original). */
    widths: integer('widths').array().notNull(),
    /** The largest stored file's size, for the page's aspect ratio. */
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('part_photos_part_idx').on(t.partId, t.position),
    index('part_photos_storage_key_idx').on(t.storageKey),
    check('part_photos_size_positive', sql`${t.width} > 0 and ${t.height} > 0`),
  ],
);
