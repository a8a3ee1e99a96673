import { type SQL, sql } from 'drizzle-orm';
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

/**
 * One column of a keyset order. Every column of one order runs the same way (the id last, as the tie-breaker), so
 * "after this row" is one row comparison, `(key, id) > (k, i)`, which PostgreSQL answers as an index range scan on
 * an index of exactly these columns. `nulls` must match the index too (see part-repository.ts), although the keys
 * themselves are never null.
 */
export interface KeyColumn {
  expr: SQL;
  dir: 'asc' | 'desc';
  nulls: 'first' | 'last';
}

/** Forward: the rows after a position, in the list's order. Backward: the rows before it, read in reverse. */
export type KeysetDirection = 'forward' | 'backward';

/** The index's backward scan: each column's direction and nulls placement flipped. */
function reversed(keys: readonly KeyColumn[]): KeyColumn[] {
  return keys.map((key) => ({
    expr: key.expr,
    dir: key.dir === 'asc' ? 'desc' : 'asc',
    nulls: key.nulls === 'first' ? 'last' : 'first',
  }));
}

function inDirection(keys: readonly KeyColumn[], direction: KeysetDirection): readonly KeyColumn[] {
  return direction === 'forward' ? keys : reversed(keys);
}

/** ORDER BY of the keys as the rows are read (for `backward`, reversed: the caller turns the page round again). */
export function keysetOrder(keys: readonly KeyColumn[], direction: KeysetDirection = 'forward'): SQL[] {
  return inDirection(keys, direction).map((key) => sql`${key.expr} ${sql.raw(key.dir)} nulls ${sql.raw(key.nulls)}`);
}

/** WHERE of the rows strictly beyond a position (`values`, one per key, already cast) in the reading direction. */
export function keysetBeyond(keys: readonly KeyColumn[], values: readonly SQL[], direction: KeysetDirection): SQL {
  const read = inDirection(keys, direction);
  const dirs = new Set(read.map((key) => key.dir));
  if (dirs.size !== 1 || values.length !== keys.length) throw new Error('a keyset order runs one way, one value a key');
  const columns = sql.join(
    read.map((key) => key.expr),
    sql`, `,
  );
  return sql`(${columns}) ${sql.raw(read[0]?.dir === 'asc' ? '>' : '<')} (${sql.join([...values], sql`, `)})`;
}

/** How a page was read, for `keysetPage`. */
export interface KeysetRead {
  /** The page size asked for; one row more was read to know whether there is more in the reading direction. */
  limit: number | undefined;
  direction: KeysetDirection;
  /** The page starts at a cursor or an offset: there is a page before it. */
  afterSomething: boolean;
}

/**
 * A page as read (one row too many when there is more; backwards when it is the page before a cursor) → its rows
 * in the list's order and the positions of the pages beside it: `next` after its last row, `prev` before its first.
 * `positionOf` undefined: the order has no keys (a search by relevance), no positions.
 */
export function keysetPage<Row, Position>(
  read: Row[],
  how: KeysetRead,
  positionOf: ((row: Row) => Position) | undefined,
): { rows: Row[]; next?: Position; prev?: Position } {
  const more = how.limit !== undefined && read.length > how.limit;
  const rows = more ? read.slice(0, how.limit) : read;
  if (how.direction === 'backward') rows.reverse();
  const first = rows[0];
  const last = rows.at(-1);
  if (!positionOf || first === undefined || last === undefined) return { rows };
  if (how.direction === 'backward') {
    // Read backwards from a cursor: the cursor's own page follows this one.
    return { rows, next: positionOf(last), ...(more ? { prev: positionOf(first) } : {}) };
  }
  return {
    rows,
    ...(more ? { next: positionOf(last) } : {}),
    ...(how.afterSomething ? { prev: positionOf(first) } : {}),
  };
}
