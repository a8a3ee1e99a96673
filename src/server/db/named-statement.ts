import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from './client.ts';

/** Compiles SQL as the app's handles do (no casing option; see client.ts). */
const dialect = new PgDialect();

/** A statement built once; `execute` fills its `sql.placeholder(…)` values. */
export interface NamedStatement {
  execute(values?: Record<string, unknown>): Promise<unknown>;
}

/**
 * A hot read built ONCE, with `sql.placeholder(name)` where its values go, and sent as a NAMED statement: the request
 * does not rebuild it (Drizzle walking a large statement's pieces was a quarter of a catalogue read's server CPU),
 * and on PostgreSQL each pooled connection parses and plans it once, then only binds and executes it (after five
 * runs PostgreSQL may keep one generic plan). Parsing and planning the catalogue's facet statement cost about as
 * much as running it (parse 1.3–2 ms, plan 2.1 ms, execute 3.4–5 ms at 100,000 parts, `log_min_duration_statement`).
 * PGlite ignores the name (it runs in this process; there is no connection to keep a plan on).
 *
 * Only for statements whose TEXT comes from a small, fixed set of shapes (every value a placeholder): each distinct
 * text stays prepared on every connection for the connection's life. A search's statement, whose text follows the
 * words typed, must not use it. The name is the text's hash, so one name never means two texts on a connection
 * (node-postgres refuses that).
 */
export function prepareNamed(db: Database, query: SQL): NamedStatement {
  const compiled = dialect.sqlToQuery(query);
  return db._.session.prepareQuery(compiled, undefined, statementName(compiled.sql), false);
}

/** A Drizzle query builder that can be prepared under a name (select, insert, … builders). */
interface Preparable<R> {
  toSQL(): { sql: string };
  prepare(name: string): { execute(values?: Record<string, unknown>): Promise<R> };
}

/** `prepareNamed` for a Drizzle query builder, keeping its row mapping; build it once and keep what this returns. */
export function prepareNamedQuery<R>(query: Preparable<R>): {
  execute(values?: Record<string, unknown>): Promise<R>;
} {
  return query.prepare(statementName(query.toSQL().sql));
}

function statementName(text: string): string {
  return `rp_${createHash('sha1').update(text).digest('base64url').slice(0, 22)}`;
}
