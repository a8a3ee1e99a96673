import crypto from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import {
  createUser,
  describeEachDatabase,
  type TestContext,
  type TestUser,
} from '../../../../test/support/test-app.ts';
import { addresses, cartItems, orders, parts } from '../../db/schema.ts';
import { intentFor } from '../payments/payment-test-helpers.ts';
import { insertPart, stockOf } from './order-test-helpers.ts';

const shipTo = { address: '7 Checkout Lane, Springfield', phone: '+1 555 0107' };

async function addToCart(ctx: TestContext, user: TestUser, partId: string, quantity: number) {
  const res = await ctx.app.inject({
    method: 'PUT',
    url: `/api/cart/items/${partId}`,
    headers: user.headers,
    payload: { quantity },
  });
  expect(res.statusCode, res.body).toBe(200);
}

function checkout(ctx: TestContext, user: TestUser, body: object = shipTo, key?: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/checkout',
    headers: { ...user.headers, ...(key ? { 'idempotency-key': key } : {}) },
    payload: body,
  });
}

async function ordersOf(ctx: TestContext, userId: string): Promise<number> {
  const [row] = await ctx.database.db.select({ n: count() }).from(orders).where(eq(orders.userId, userId));
  return row?.n ?? 0;
}

async function cartLinesOf(ctx: TestContext, userId: string): Promise<number> {
  const [row] = await ctx.database.db.select({ n: count() }).from(cartItems).where(eq(cartItems.userId, userId));
  return row?.n ?? 0;
}

/** One checkout places every line of the cart, all or none. */
describeEachDatabase('checkout', (ctx) => {
  it('places every line as an order with one checkout id, empties the cart and saves the address', async () => {
    const user = await createUser(ctx());
    const db = ctx().database.db;
    const a = await insertPart(db, { priceCents: 1000, availableQuantity: 20 });
    const b = await insertPart(db, { priceCents: 2550, availableQuantity: 20 });
    const c = await insertPart(db, { priceCents: 499, availableQuantity: 20, minimumOrder: 2 });
    await addToCart(ctx(), user, a.id, 1);
    await addToCart(ctx(), user, b.id, 2);
    await addToCart(ctx(), user, c.id, 2);

    const res = await checkout(ctx(), user);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.orders).toHaveLength(3);
    expect(body.total).toBe(10 + 51 + 9.98);
    for (const order of body.orders) {
      expect(order).toMatchObject({ status: 'unpaid', paid: false, ...shipTo, email: user.email });
    }
    const rows = await db.select().from(orders).where(eq(orders.userId, user.id));
    expect(new Set(rows.map((row) => row.checkoutId))).toEqual(new Set([body.checkoutId]));
    expect(await stockOf(db, a.id)).toBe(19);
    expect(await stockOf(db, b.id)).toBe(18);
    expect(await stockOf(db, c.id)).toBe(18);
    expect(await cartLinesOf(ctx(), user.id)).toBe(0);
    // Each is the spec's order: listed in My Order.
    const mine = await ctx().app.inject({ method: 'GET', url: '/api/myorder', headers: user.headers });
    expect(mine.json()).toHaveLength(3);

    const book = await ctx().app.inject({ method: 'GET', url: '/api/addresses', headers: user.headers });
    expect(book.json()).toEqual([expect.objectContaining(shipTo)]);
  });

  it('one line out of stock: nothing is reserved, nothing ordered, the cart stays, and the reason is per line', async () => {
    const user = await createUser(ctx());
    const db = ctx().database.db;
    const plenty = await insertPart(db, { availableQuantity: 20 });
    const scarce = await insertPart(db, { availableQuantity: 5 });
    await addToCart(ctx(), user, plenty.id, 3);
    await addToCart(ctx(), user, scarce.id, 4);
    // Others bought the scarce part meanwhile.
    await db.update(parts).set({ availableQuantity: 2 }).where(eq(parts.id, scarce.id));

    const res = await checkout(ctx(), user);
    expect(res.statusCode).toBe(422);
    const error = res.json().error;
    expect(error.code).toBe('checkout_refused');
    expect(error.details).toEqual([
      expect.objectContaining({ partId: scarce.id, code: 'stock_out', message: 'Stock Out', availableQuantity: 2 }),
    ]);
    expect(await stockOf(db, plenty.id)).toBe(20);
    expect(await stockOf(db, scarce.id)).toBe(2);
    expect(await ordersOf(ctx(), user.id)).toBe(0);
    expect(await cartLinesOf(ctx(), user.id)).toBe(2);
    const [saved] = await db.select({ n: count() }).from(addresses).where(eq(addresses.userId, user.id));
    expect(saved?.n).toBe(0);
  });

  it('names every refused line with its own reason (minimum, hold limit) and writes nothing', async () => {
    const user = await createUser(ctx());
    const db = ctx().database.db;
    const fine = await insertPart(db, { availableQuantity: 20 });
    const raised = await insertPart(db, { availableQuantity: 20 });
    // The default hold limit: at most half the stock unpaid per customer (here 5 of 10).
    const held = await insertPart(db, { availableQuantity: 10 });
    await addToCart(ctx(), user, fine.id, 3);
    await addToCart(ctx(), user, raised.id, 2);
    await addToCart(ctx(), user, held.id, 6);
    await db.update(parts).set({ minimumOrder: 5 }).where(eq(parts.id, raised.id));

    const res = await checkout(ctx(), user);
    expect(res.statusCode, res.body).toBe(422);
    const error = res.json().error;
    expect(error.code).toBe('checkout_refused');
    const lineOf = (partId: string) => `lines.${[fine.id, raised.id, held.id].sort().indexOf(partId)}`;
    expect(error.details).toHaveLength(2);
    expect(error.details).toEqual(
      expect.arrayContaining([
        {
          path: lineOf(raised.id),
          partId: raised.id,
          code: 'below_minimum_order',
          message: 'Order At Least 5 PCS',
          minimumOrder: 5,
        },
        expect.objectContaining({ path: lineOf(held.id), partId: held.id, code: 'hold_limit', holdLimit: 5, held: 0 }),
      ]),
    );
    expect(await stockOf(db, fine.id)).toBe(20);
    expect(await stockOf(db, raised.id)).toBe(20);
    expect(await stockOf(db, held.id)).toBe(10);
    expect(await ordersOf(ctx(), user.id)).toBe(0);
    expect(await cartLinesOf(ctx(), user.id)).toBe(3);
  });

  it('checkouts racing for the last units of the same parts: whole checkouts only, never below zero', async () => {
    const db = ctx().database.db;
    const STOCK = 10;
    const shared = [];
    for (let i = 0; i < 3; i++) shared.push(await insertPart(db, { availableQuantity: STOCK }));
    const buyers = [];
    for (let i = 0; i < 12; i++) {
      const buyer = await createUser(ctx());
      // Each cart holds the three parts, filled in a different order, 1 or 2 PCS each.
      for (const [n, part] of [...shared].sort(() => Math.random() - 0.5).entries()) {
        await addToCart(ctx(), buyer, part.id, 1 + ((i + n) % 2));
      }
      buyers.push(buyer);
    }
    const answers = await Promise.all(buyers.map((buyer) => checkout(ctx(), buyer)));
    for (const answer of answers) {
      expect([201, 422], answer.body).toContain(answer.statusCode);
      if (answer.statusCode === 422) expect(answer.json().error.code).toBe('checkout_refused');
    }
    const placed = answers.filter((answer) => answer.statusCode === 201);
    expect(placed.length).toBeGreaterThan(0);
    for (const [index, buyer] of buyers.entries()) {
      // All three lines or none.
      expect(await ordersOf(ctx(), buyer.id)).toBe(answers[index]?.statusCode === 201 ? 3 : 0);
    }
    for (const part of shared) {
      const rows = await db.select({ quantity: orders.quantity }).from(orders).where(eq(orders.partId, part.id));
      const ordered = rows.reduce((sum, row) => sum + row.quantity, 0);
      const stock = await stockOf(db, part.id);
      expect(stock).toBeGreaterThanOrEqual(0);
      expect(stock + ordered).toBe(STOCK);
    }
  });

  it('the same Idempotency-Key twice places one set of orders and answers the first result again', async () => {
    const user = await createUser(ctx());
    const part = await insertPart(ctx().database.db, { availableQuantity: 20 });
    await addToCart(ctx(), user, part.id, 2);
    const key = crypto.randomUUID();
    const first = await checkout(ctx(), user, shipTo, key);
    expect(first.statusCode).toBe(201);
    const again = await checkout(ctx(), user, shipTo, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await ordersOf(ctx(), user.id)).toBe(1);
    expect(await stockOf(ctx().database.db, part.id)).toBe(18);
  });

  it('two checkouts of the same cart at once place it once (the cart lines are locked)', async () => {
    const user = await createUser(ctx());
    const part = await insertPart(ctx().database.db, { availableQuantity: 20 });
    await addToCart(ctx(), user, part.id, 2);
    const answers = await Promise.all([checkout(ctx(), user), checkout(ctx(), user)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 422]);
    expect(answers.find((a) => a.statusCode === 422)?.json().error.code).toBe('cart_empty');
    expect(await ordersOf(ctx(), user.id)).toBe(1);
  });

  it('an empty cart is 422 cart_empty; a saved address of someone else is 404', async () => {
    const user = await createUser(ctx());
    expect((await checkout(ctx(), user)).json().error.code).toBe('cart_empty');
    const other = await createUser(ctx());
    const saved = await ctx().app.inject({
      method: 'POST',
      url: '/api/addresses',
      headers: other.headers,
      payload: shipTo,
    });
    expect(saved.statusCode).toBe(201);
    const part = await insertPart(ctx().database.db);
    await addToCart(ctx(), user, part.id, 1);
    expect((await checkout(ctx(), user, { addressId: saved.json()._id })).statusCode).toBe(404);
    expect(await ordersOf(ctx(), user.id)).toBe(0);
  });

  it('the address book keeps the 20 most recently used entries: a used one moves forward, a new one drops the oldest', async () => {
    const user = await createUser(ctx());
    const { db } = ctx().database;
    const start = Date.parse('2026-01-01T00:00:00Z');
    // Entry i was last used i minutes after the start: entry 0 is the least recently used.
    await db.insert(addresses).values(
      Array.from({ length: 20 }, (_, i) => ({
        userId: user.id,
        address: `${i} Book Street`,
        phone: '+1 555 0100',
        lastUsedAt: new Date(start + i * 60_000),
      })),
    );
    const book = async () =>
      (await db.select().from(addresses).where(eq(addresses.userId, user.id))).map((row) => row.address).sort();
    const part = await insertPart(db, { availableQuantity: 20 });
    // Entry 0 again: the same entry, now the most recently used; nothing goes.
    await addToCart(ctx(), user, part.id, 1);
    expect((await checkout(ctx(), user, { address: '0 Book Street', phone: '+1 555 0100' })).statusCode).toBe(201);
    expect(await book()).toHaveLength(20);
    expect(await book()).toContain('0 Book Street');
    // A new entry: the least recently used one (now entry 1) goes, the new one stays.
    await addToCart(ctx(), user, part.id, 1);
    expect((await checkout(ctx(), user, shipTo)).statusCode).toBe(201);
    const after = await book();
    expect(after).toHaveLength(20);
    expect(after).toContain(shipTo.address);
    expect(after).toContain('0 Book Street');
    expect(after).not.toContain('1 Book Street');
  });

  it('checks out to a saved address by its id', async () => {
    const user = await createUser(ctx());
    const saved = (
      await ctx().app.inject({ method: 'POST', url: '/api/addresses', headers: user.headers, payload: shipTo })
    ).json();
    const part = await insertPart(ctx().database.db);
    await addToCart(ctx(), user, part.id, 1);
    const res = await checkout(ctx(), user, { addressId: saved._id });
    expect(res.statusCode).toBe(201);
    expect(res.json().orders[0]).toMatchObject(shipTo);
  });

  it('an order placed without an address gets one before it is paid; a paid one cannot change it', async () => {
    const user = await createUser(ctx());
    const part = await insertPart(ctx().database.db);
    const placed = await ctx().app.inject({
      method: 'POST',
      url: '/api/myorder',
      headers: user.headers,
      payload: { partId: part.id, quantity: 1 },
    });
    const orderId = placed.json()._id;
    const refused = await intentFor(ctx(), user, orderId);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toMatchObject({ code: 'address_required', details: [{ orderId }] });

    const other = await createUser(ctx());
    const url = `/api/myorder/${orderId}/address`;
    expect((await ctx().app.inject({ method: 'PATCH', url, headers: other.headers, payload: shipTo })).statusCode).toBe(
      404,
    );
    const set = await ctx().app.inject({ method: 'PATCH', url, headers: user.headers, payload: shipTo });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject(shipTo);
    const intent = await intentFor(ctx(), user, orderId);
    expect(intent.statusCode).toBe(200);

    await ctx()
      .database.db.update(orders)
      .set({ paid: true, status: 'paid', transactionId: 'pi_x' })
      .where(eq(orders.id, orderId));
    const late = await ctx().app.inject({ method: 'PATCH', url, headers: user.headers, payload: shipTo });
    expect(late.statusCode).toBe(409);
  });
});
