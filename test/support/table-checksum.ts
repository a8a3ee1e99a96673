import { sql } from 'drizzle-orm';
import type { Database } from '../../src/server/db/client.ts';

const TABLES = [
  'users',
  'sessions',
  'oauth_states',
  'profiles',
  'parts',
  'orders',
  'payment_intents',
  'payment_attempts',
  'processed_webhook_events',
  'reviews',
  'account_tokens',
  'signup_requests',
  'mail_outbox',
  'brands',
  'categories',
  'vehicle_makes',
  'vehicle_models',
  'vehicles',
  'part_fitments',
  'garage_vehicles',
  // A refused photo upload records no photo.
  'part_photos',
  // A refused request must not keep its Idempotency-Key either (health_probe is left out: every health check writes it).
  'idempotency_keys',
] as const;

/**
 * A digest of every row of every table: equal before and after means a refused request changed nothing.
 * One round trip for all tables (PGlite runs queries one at a time, so ten would cost ten turns).
 */
export async function databaseChecksum(db: Database): Promise<Record<string, string>> {
  const query = TABLES.map(
    (table) =>
      `SELECT '${table}' AS name, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM "${table}" t`,
  ).join(' UNION ALL ');
  const rows = await db.execute<{ name: string; digest: string }>(sql.raw(query));
  const list = Array.isArray(rows) ? rows : (rows as { rows: { name: string; digest: string }[] }).rows;
  return Object.fromEntries(list.map((row) => [row.name, row.digest]));
}
