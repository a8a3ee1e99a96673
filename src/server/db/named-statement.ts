import { createHash } from 'node:crypto';
import { Column, is, SQL } from 'drizzle-orm';
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

/** What a select's column may be: a table column, an SQL expression, or an aliased one. */
type SelectedField = Column | SQL | SQL.Aliased;

/** How Drizzle turns a field's driver value into the row's value (its column's type, or `sql<T>`'s decoder). */
type Decoder = { mapFromDriverValue(value: unknown): unknown };
function decoderOf(field: SelectedField): Decoder {
  if (is(field, Column)) return field;
  // `decoder` is what `sql<T>` and `.mapWith()` set; Drizzle's types keep it internal.
  const expression = is(field, SQL) ? field : field.sql;
  return (expression as unknown as { decoder: Decoder }).decoder;
}

/**
 * `prepareNamed` for a Drizzle select of a FLAT object of columns, its rows mapped by position through decoders found
 * once: Drizzle's own mapping asks `is(field, …)` of every field of every row (a prototype walk), which was
 * 15 % of the server's CPU on a vehicle's parts page (25 rows × 28 columns per request). The select must list
 * exactly `columns`, in their order (Drizzle writes a flat object's columns in key order).
 */
export function prepareNamedRows<Row>(
  db: Database,
  query: { getSQL(): SQL },
  columns: Record<string, SelectedField>,
): { execute(values?: Record<string, unknown>): Promise<Row[]> } {
  const compiled = dialect.sqlToQuery(query.getSQL());
  const decoders = Object.entries(columns).map(([key, field]) => ({ key, decoder: decoderOf(field) }));
  const mapRows = (rows: unknown[][]): Row[] =>
    rows.map((row) => {
      const mapped: Record<string, unknown> = {};
      for (let i = 0; i < decoders.length; i++) {
        const { key, decoder } = decoders[i] as (typeof decoders)[number];
        const value = row[i];
        mapped[key] = value === null || value === undefined ? null : decoder.mapFromDriverValue(value);
      }
      return mapped as Row;
    });
  return db._.session.prepareQuery(
    compiled,
    undefined,
    statementName(compiled.sql),
    true,
    mapRows as (rows: unknown[][]) => unknown,
  ) as unknown as { execute(values?: Record<string, unknown>): Promise<Row[]> };
}

function statementName(text: string): string {
  return `rp_${createHash('sha1').update(text).digest('base64url').slice(0, 22)}`;
}
