import type { PgSelect } from 'drizzle-orm/pg-core';

/** A page of a list: `limit` rows after skipping `offset` (either may be absent: no limit, from the start). */
export interface Page {
  limit?: number | undefined;
  offset?: number | undefined;
}

/** Applies a page to a dynamic select (`….$dynamic()`); an offset of 0 is left out of the SQL. */
export function withPage<Query extends PgSelect>(query: Query, page: Page): Query {
  let paged = query;
  if (page.limit !== undefined) paged = paged.limit(page.limit);
  if (page.offset) paged = paged.offset(page.offset);
  return paged;
}
