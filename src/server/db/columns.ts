import { sql } from 'drizzle-orm';
import { timestamp } from 'drizzle-orm/pg-core';

/** Columns and check-constraint text every module's schema.ts shares. */
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** A constant list as SQL text, `('a', 'b')`, so a check constraint names the same values as the shared list. */
export const sqlList = (values: readonly string[]) => sql.raw(`(${values.map((value) => `'${value}'`).join(', ')})`);
