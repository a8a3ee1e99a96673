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
] as const;

/** A digest of every row of every table: equal before and after means a refused request changed nothing. */
export async function databaseChecksum(db: Database): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const table of TABLES) {
    const rows = await db.execute<{ digest: string | null }>(
      sql.raw(`SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM "${table}" t`),
    );
    const list = Array.isArray(rows) ? rows : (rows as { rows: { digest: string | null }[] }).rows;
    result[table] = list[0]?.digest ?? '';
  }
  return result;
}
