import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns.ts';

/**
 * Idempotency keys of money-moving requests (the idempotency module, ADR 006): the first answer to a key, replayed
 * to a retry with the same key. Written in the transaction that does the work, so the two commit together; kept
 * IDEMPOTENCY_KEY_TTL_HOURS (at least 24), then purged.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** Whose key: `user:<id>` (a key is only ever matched against the same caller's). */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the request (method, route, path parameters, body): the same key with another request is a 409. */
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code').notNull(),
    responseBody: jsonb('response_body'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_created_at_idx').on(t.createdAt)],
);
