import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns.ts';
import { users } from '../accounts/schema.ts';

export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null for the demo reviews; set null if the author's account goes, the words stay. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    rating: integer('rating').notNull(),
    img: text('img').notNull(),
    review: text('review').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('reviews_rating_range', sql`${t.rating} between 1 and 5`),
    check('reviews_text_length', sql`char_length(${t.review}) between 1 and 500`),
    index('reviews_created_at_idx').on(t.createdAt.desc()),
  ],
);
