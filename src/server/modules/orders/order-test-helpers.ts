import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { orders, parts } from '../../db/schema.ts';

/** A part straight in the database, for order tests (the catalogue's own routes are tested by the catalogue). */
export async function insertPart(
  db: Database,
  values: { name?: string; priceCents?: number; availableQuantity?: number; minimumOrder?: number } = {},
) {
  const [row] = await db
    .insert(parts)
    .values({
      name: values.name ?? `Part ${Math.random().toString(36).slice(2, 8)}`,
      img: '/images/parts/brake-disc.svg',
      priceCents: values.priceCents ?? 2550,
      availableQuantity: values.availableQuantity ?? 100,
      minimumOrder: values.minimumOrder ?? 1,
    })
    .returning();
  if (!row) throw new Error('part not inserted');
  return row;
}

export async function stockOf(db: Database, partId: string): Promise<number> {
  const [row] = await db.select({ n: parts.availableQuantity }).from(parts).where(eq(parts.id, partId));
  if (!row) throw new Error('no such part');
  return row.n;
}

export async function orderedQuantity(db: Database, partId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`coalesce(sum(${orders.quantity}), 0)` })
    .from(orders)
    .where(eq(orders.partId, partId));
  return Number(row?.n ?? 0);
}

export async function orderRow(db: Database, id: string) {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  return row;
}
