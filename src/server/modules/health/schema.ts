import { integer, pgTable, timestamp } from 'drizzle-orm/pg-core';

/** One row the readiness check rewrites (the health module): proves the database still takes writes. */
export const healthProbe = pgTable('health_probe', {
  id: integer('id').primaryKey(),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
});
