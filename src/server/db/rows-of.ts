/**
 * The rows of a raw `db.execute(sql…)` answer: node-postgres and PGlite's Drizzle drivers answer `{ rows }`, others
 * a bare array. One reading for every repository that runs raw SQL.
 */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}
