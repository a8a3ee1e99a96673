import crypto from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import {
  createUser,
  describeEachDatabase,
  type TestContext,
  type TestUser,
} from '../../../../test/support/test-app.ts';
import { idempotencyKeys, orders } from '../../db/schema.ts';
import { insertPart, stockOf } from './order-test-helpers.ts';

async function ordersOf(ctx: TestContext, userId: string): Promise<number> {
  const [row] = await ctx.database.db.select({ n: count() }).from(orders).where(eq(orders.userId, userId));
  return row?.n ?? 0;
}

function post(ctx: TestContext, user: TestUser, body: object, key?: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/myorder',
    headers: { ...user.headers, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload: body,
  });
}

/** POST /api/myorder is safe to retry with an Idempotency-Key. */
describeEachDatabase('placing an order with an Idempotency-Key', (ctx) => {
  it('a retry with the same key and body answers the first result again and places nothing more', async () => {
    const user = await createUser(ctx());
    const part = await insertPart(ctx().database.db, { availableQuantity: 50 });
    const body = { partId: part.id, quantity: 3, address: '1 Retry Road', phone: '+1 555 0101' };
    const key = crypto.randomUUID();

    const first = await post(ctx(), user, body, key);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The same request again, its fields in another order: the same request.
    const again = await post(
      ctx(),
      user,
      { phone: body.phone, address: body.address, quantity: 3, partId: part.id },
      key,
    );
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());

    expect(await ordersOf(ctx(), user.id)).toBe(1);
    expect(await stockOf(ctx().database.db, part.id)).toBe(47);
  });

  it('the same key with another body is 409 idempotency_key_reused and changes nothing', async () => {
    const user = await createUser(ctx());
    const part = await insertPart(ctx().database.db, { availableQuantity: 50 });
    const key = crypto.randomUUID();
    expect((await post(ctx(), user, { partId: part.id, quantity: 2 }, key)).statusCode).toBe(201);

    const other = await post(ctx(), user, { partId: part.id, quantity: 5 }, key);
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('idempotency_key_reused');
    expect(await ordersOf(ctx(), user.id)).toBe(1);
    expect(await stockOf(ctx().database.db, part.id)).toBe(48);
  });

  it('keys are per caller: another customer with the same key places their own order', async () => {
    const [one, two] = [await createUser(ctx()), await createUser(ctx())];
    const part = await insertPart(ctx().database.db);
    const key = crypto.randomUUID();
    const body = { partId: part.id, quantity: 1 };
    const a = await post(ctx(), one, body, key);
    const b = await post(ctx(), two, body, key);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(a.json()._id).not.toBe(b.json()._id);
  });

  it('duplicates sent at once place one order, and all of them get its answer', async () => {
    const user = await createUser(ctx());
    const part = await insertPart(ctx().database.db, { availableQuantity: 100 });
    const key = crypto.randomUUID();
    const body = { partId: part.id, quantity: 4, address: 'Race St 1' };
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(ctx(), user, body, key)));
    expect(answers.map((res) => res.statusCode)).toEqual(Array(8).fill(201));
    expect(new Set(answers.map((res) => res.json()._id)).size).toBe(1);
    expect(answers.filter((res) => res.headers['idempotent-replayed'] === 'true')).toHaveLength(7);
    expect(await ordersOf(ctx(), user.id)).toBe(1);
    expect(await stockOf(ctx().database.db, part.id)).toBe(96);
  });

  it('a refusal keeps no key: the corrected retry with the same key is placed', async () => {
    const user = await createUser(ctx());
    const part = await insertPart(ctx().database.db, { availableQuantity: 5, minimumOrder: 2 });
    const key = crypto.randomUUID();
    const refused = await post(ctx(), user, { partId: part.id, quantity: 1 }, key);
    expect(refused.statusCode).toBe(422);
    const stored = await ctx()
      .database.db.select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, `user:${user.id}`), eq(idempotencyKeys.key, key)));
    expect(stored).toEqual([]);
    const corrected = await post(ctx(), user, { partId: part.id, quantity: 2 }, key);
    expect(corrected.statusCode).toBe(201);
    expect(await ordersOf(ctx(), user.id)).toBe(1);
  });

  it('without a key every request is its own order, as before', async () => {
    const user = await createUser(ctx());
    const part = await insertPart(ctx().database.db);
    const body = { partId: part.id, quantity: 1 };
    expect((await post(ctx(), user, body)).statusCode).toBe(201);
    expect((await post(ctx(), user, body)).statusCode).toBe(201);
    expect(await ordersOf(ctx(), user.id)).toBe(2);
  });

  it('a malformed key is 400 and places nothing', async () => {
    const user = await createUser(ctx());
    const part = await insertPart(ctx().database.db);
    for (const key of ['', 'x'.repeat(256), 'has space', 'ümlaut']) {
      const res = await post(ctx(), user, { partId: part.id, quantity: 1 }, key);
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
      expect(res.json().error.code).toBe('invalid_data');
    }
    expect(await ordersOf(ctx(), user.id)).toBe(0);
  });
});

describeEachDatabase('listing my orders, page by page', (ctx) => {
  it('pages with limit and offset, newest first, and gives the total in X-Total-Count', async () => {
    const user = await createUser(ctx());
    const part = await insertPart(ctx().database.db, { availableQuantity: 1000 });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await post(ctx(), user, { partId: part.id, quantity: 1 })).json()._id);
    const newestFirst = [...ids].reverse();

    const page = (query: string) =>
      ctx().app.inject({ method: 'GET', url: `/api/myorder${query}`, headers: user.headers });
    const all = await page('');
    expect(all.statusCode).toBe(200);
    expect(all.headers['x-total-count']).toBe('7');
    expect(all.json().map((o: { _id: string }) => o._id)).toEqual(newestFirst);

    const second = await page('?limit=3&offset=3');
    expect(second.headers['x-total-count']).toBe('7');
    expect(second.json().map((o: { _id: string }) => o._id)).toEqual(newestFirst.slice(3, 6));

    for (const bad of ['?limit=0', '?limit=501', '?offset=-1', '?limit=abc']) {
      expect((await page(bad)).statusCode, bad).toBe(400);
    }
  });

  it('answers at most 100 orders when no limit is asked for', async () => {
    const user = await createUser(ctx());
    const part = await insertPart(ctx().database.db, { availableQuantity: 1000 });
    await ctx()
      .database.db.insert(orders)
      .values(
        Array.from({ length: 105 }, () => ({
          partId: part.id,
          userId: user.id,
          partName: part.name,
          unitPriceCents: 100,
          quantity: 1,
          totalCents: 100,
          email: user.email,
          userName: user.displayName,
        })),
      );
    const res = await ctx().app.inject({ method: 'GET', url: '/api/myorder', headers: user.headers });
    expect(res.json()).toHaveLength(100);
    expect(res.headers['x-total-count']).toBe('105');
  });
});
