import crypto from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { idempotencyKeys } from '../../db/schema.ts';

/** What a key already stands for, if anything. */
export type Claim =
  | { state: 'new' }
  | { state: 'replay'; statusCode: number; body: unknown }
  /** The key was used for a different request (another body, route or caller's request). */
  | { state: 'reused' };

/**
 * The idempotency module's one table (ADR 006): keys a caller sent with a money-moving request, each with the hash
 * of that request and the answer it got. A key is claimed by inserting its row in the transaction that does the
 * work, and the answer is written into the same row before that transaction commits: the work and its answer are
 * recorded together or not at all. A concurrent duplicate's insert waits on the row's primary key until the first
 * transaction ends, then replays what it committed (or, if it rolled back, does the work itself).
 */
export async function claimKey(tx: Transaction, scope: string, key: string, requestHash: string): Promise<Claim> {
  const inserted = await tx
    .insert(idempotencyKeys)
    .values({ scope, key, requestHash, statusCode: 0, responseBody: null })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length > 0) return { state: 'new' };
  const [row] = await tx
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
  if (!row) return { state: 'new' };
  if (row.requestHash !== requestHash) return { state: 'reused' };
  return { state: 'replay', statusCode: row.statusCode, body: row.responseBody };
}

/** Records the answer of a claimed key, in the transaction that claimed it. */
export async function recordAnswer(
  tx: Transaction,
  scope: string,
  key: string,
  statusCode: number,
  body: unknown,
): Promise<void> {
  await tx
    .update(idempotencyKeys)
    .set({ statusCode, responseBody: body ?? null })
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
}

/** Deletes keys older than the time they are kept; returns how many. */
export async function purgeExpiredKeys(db: Database, keepHours: number): Promise<number> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${keepHours}::int)`))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}

/** JSON with object keys sorted, so the same request always hashes the same whatever order its fields came in. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
}

/** The request a key stands for: method, route, path parameters and body. */
export function requestHash(parts: { method: string; route: string; params: unknown; body: unknown }): string {
  return crypto
    .createHash('sha256')
    .update(JSON.stringify(canonical(parts)) ?? '')
    .digest('hex');
}
