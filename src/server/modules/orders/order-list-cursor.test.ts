import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { createUser, describeEachDatabase, type TestUser } from '../../../../test/support/test-app.ts';
import { encodeCursor } from '../../../shared/cursor.ts';
import { orderSchema } from '../../../shared/schemas/orders.ts';
import { orders } from '../../db/schema.ts';
import { insertPart } from './order-test-helpers.ts';

/**
 * Keyset paging of the order lists: Manage Orders (`GET /api/allorder`, with its status filter and
 * search) and My Orders. Orders share creation times, or are a microsecond apart, so the id must break the ties.
 */
const COUNT = 23;

describeEachDatabase('cursor paging of the order lists', (ctx) => {
  let admin: TestUser;
  let buyer: TestUser;
  beforeAll(async () => {
    admin = await createUser(ctx(), { admin: true });
    buyer = await createUser(ctx(), { displayName: 'Cursor Buyer' });
    const part = await insertPart(ctx().database.db, { name: 'Cursor Chain', priceCents: 1000 });
    for (let i = 0; i < COUNT; i++) {
      const createdAt = `2026-02-01T00:00:0${Math.floor(i / 10)}.${String(Math.floor(i / 4)).padStart(6, '0')}Z`;
      await ctx()
        .database.db.insert(orders)
        .values({
          partId: part.id,
          userId: buyer.id,
          partName: i % 2 ? 'Cursor Chain' : 'Cursor Sprocket',
          unitPriceCents: 1000,
          quantity: 1,
          totalCents: 1000,
          email: buyer.email,
          userName: 'Cursor Buyer',
          ...(i % 3 === 0
            ? { status: 'paid' as const, paid: true, transactionId: `tx-cursor-${i}`, paidAt: new Date() }
            : { status: 'unpaid' as const }),
          createdAt: sql`${createdAt}::timestamptz` as unknown as Date,
        });
    }
  });

  async function get(url: string, who: TestUser = admin) {
    const res = await ctx().app.inject({ method: 'GET', url, headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return {
      ids: z
        .array(orderSchema)
        .parse(res.json())
        .map((o) => o._id),
      headers: res.headers,
    };
  }

  /** Follows X-Next-Cursor from page 1, then X-Prev-Cursor back from the last page. */
  async function walk(path: string, query: string, limit: number, who: TestUser = admin) {
    const forward: string[] = [];
    let next: string | undefined;
    let last = '';
    do {
      const url = `${path}?${query}&limit=${limit}${next ? `&after=${next}` : ''}`;
      const page = await get(url, who);
      forward.push(...page.ids);
      last = url;
      next = page.headers['x-next-cursor'] as string | undefined;
    } while (next);
    const backward: string[][] = [];
    let url: string | undefined = last;
    while (url) {
      const page = await get(url, who);
      backward.unshift(page.ids);
      const prev = page.headers['x-prev-cursor'] as string | undefined;
      url = prev ? `${path}?${query}&limit=${limit}&before=${prev}` : undefined;
    }
    return { forward, backward: backward.flat() };
  }

  it.each([
    ['', 5],
    ['status=unpaid', 4],
    ['status=paid', 2],
    ['q=sprocket', 3],
    ['status=unpaid&q=chain', 1],
  ])('Manage Orders (%s) walks by cursor: each order once, newest first, both ways', async (query, limit) => {
    const { ids: expected, headers } = await get(`/api/allorder?${query}&limit=500`);
    expect(expected.length).toBeGreaterThan(0);
    const { forward, backward } = await walk('/api/allorder', query, limit);
    expect(forward).toEqual(expected);
    expect(backward).toEqual(expected);
    expect(headers['x-total-count']).toBe(String(expected.length));
  });

  it("My Orders walks by cursor too, for its buyer and for an admin naming the buyer's email", async () => {
    const { ids: expected } = await get('/api/myorder?limit=500', buyer);
    expect(expected).toHaveLength(COUNT);
    expect((await walk('/api/myorder', 'status=unpaid', 3, buyer)).forward).toEqual(
      (await get('/api/myorder?status=unpaid&limit=500', buyer)).ids,
    );
    expect((await walk('/api/myorder', `email=${encodeURIComponent(buyer.email)}`, 6)).forward).toEqual(expected);
  });

  it('refuses a bad cursor, or a parts cursor, with a 400', async () => {
    const partsCursor = encodeCursor({ o: 'price_asc', k: 5, i: '00000000-0000-4000-8000-000000000000' });
    for (const query of ['after=zz', `after=${partsCursor}`, `before=${partsCursor}`, 'after=e30&offset=1']) {
      for (const path of ['/api/allorder', '/api/myorder']) {
        const res = await ctx().app.inject({ method: 'GET', url: `${path}?${query}`, headers: admin.headers });
        expect(res.statusCode, `${path}?${query}: ${res.body}`).toBe(400);
        expect(res.json().error.code).toBe('invalid_data');
      }
    }
  });
});
