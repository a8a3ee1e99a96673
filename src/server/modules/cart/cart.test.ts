import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import {
  createUser,
  describeEachDatabase,
  type TestContext,
  type TestUser,
} from '../../../../test/support/test-app.ts';
import { parts } from '../../db/schema.ts';
import { insertPart } from '../orders/order-test-helpers.ts';

function call(
  ctx: TestContext,
  user: TestUser,
  method: 'GET' | 'PUT' | 'DELETE' | 'POST',
  url: string,
  payload?: object,
) {
  return ctx.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });
}

/** The cart. */
describeEachDatabase('cart', (ctx) => {
  it('starts empty, takes parts with the order rule, answers lines with live price, stock and totals', async () => {
    const user = await createUser(ctx());
    const empty = await call(ctx(), user, 'GET', '/api/cart');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ lines: [], total: 0, count: 0 });

    const disc = await insertPart(ctx().database.db, { name: 'Disc', priceCents: 2550, availableQuantity: 10 });
    const pads = await insertPart(ctx().database.db, { name: 'Pads', priceCents: 1000, minimumOrder: 2 });
    expect((await call(ctx(), user, 'PUT', `/api/cart/items/${disc.id}`, { quantity: 2 })).statusCode).toBe(200);
    const res = await call(ctx(), user, 'PUT', `/api/cart/items/${pads.id}`, { quantity: 4 });
    expect(res.statusCode).toBe(200);
    const cart = res.json();
    expect(cart.count).toBe(2);
    expect(cart.total).toBe(91);
    expect(cart.lines[0]).toMatchObject({
      partId: disc.id,
      name: 'Disc',
      price: 25.5,
      quantity: 2,
      minimumOrder: 1,
      availableQuantity: 10,
      lineTotal: 51,
      problem: null,
    });
    // Changing a quantity keeps the line (and its place).
    const changed = (await call(ctx(), user, 'PUT', `/api/cart/items/${disc.id}`, { quantity: 3 })).json();
    expect(changed.lines.map((l: { partId: string }) => l.partId)).toEqual([disc.id, pads.id]);
    expect(changed.lines[0].quantity).toBe(3);
    // Removing it, twice: the second says it is not there.
    expect((await call(ctx(), user, 'DELETE', `/api/cart/items/${disc.id}`)).json().count).toBe(1);
    expect((await call(ctx(), user, 'DELETE', `/api/cart/items/${disc.id}`)).statusCode).toBe(404);
  });

  it('refuses quantities the order rule refuses, with its codes and messages, and changes nothing', async () => {
    const user = await createUser(ctx());
    const part = await insertPart(ctx().database.db, { availableQuantity: 5, minimumOrder: 2 });
    const below = await call(ctx(), user, 'PUT', `/api/cart/items/${part.id}`, { quantity: 1 });
    expect(below.statusCode).toBe(422);
    expect(below.json().error.code).toBe('below_minimum_order');
    const over = await call(ctx(), user, 'PUT', `/api/cart/items/${part.id}`, { quantity: 6 });
    expect(over.statusCode).toBe(422);
    expect(over.json().error).toMatchObject({ code: 'stock_out', message: 'Stock Out' });
    // Far above the stock (and the largest order total too): the stock is what to fix, with the quantity there is.
    const farOver = await call(ctx(), user, 'PUT', `/api/cart/items/${part.id}`, { quantity: 1_000_000 });
    expect(farOver.statusCode).toBe(422);
    expect(farOver.json().error).toMatchObject({ code: 'stock_out', details: [{ availableQuantity: 5 }] });
    const unknown = await call(ctx(), user, 'PUT', '/api/cart/items/00000000-0000-4000-8000-000000000000', {
      quantity: 2,
    });
    expect(unknown.statusCode).toBe(404);
    expect((await call(ctx(), user, 'GET', '/api/cart')).json().count).toBe(0);
  });

  it('a line whose part lost stock says why it cannot be ordered', async () => {
    const user = await createUser(ctx());
    const part = await insertPart(ctx().database.db, { availableQuantity: 5 });
    await call(ctx(), user, 'PUT', `/api/cart/items/${part.id}`, { quantity: 4 });
    // Other buyers took stock meanwhile (the cart reserves nothing).
    await ctx().database.db.update(parts).set({ availableQuantity: 3 }).where(eq(parts.id, part.id));
    const line = (await call(ctx(), user, 'GET', '/api/cart')).json().lines[0];
    expect(line).toMatchObject({ availableQuantity: 3, problem: 'Stock Out' });
  });

  it("merges a visitor's cart: quantities added where the rule allows, unknown parts and refused ones left out", async () => {
    const user = await createUser(ctx());
    const a = await insertPart(ctx().database.db, { availableQuantity: 10 });
    const b = await insertPart(ctx().database.db, { availableQuantity: 4 });
    const c = await insertPart(ctx().database.db, { availableQuantity: 10, minimumOrder: 5 });
    await call(ctx(), user, 'PUT', `/api/cart/items/${a.id}`, { quantity: 2 });
    await call(ctx(), user, 'PUT', `/api/cart/items/${b.id}`, { quantity: 3 });
    const res = await call(ctx(), user, 'POST', '/api/cart/merge', {
      lines: [
        { partId: a.id, quantity: 3 },
        // 3 + 2 is more than the stock of 4: the visitor's 2 is kept.
        { partId: b.id, quantity: 2 },
        // Below the minimum of 5: left out.
        { partId: c.id, quantity: 1 },
        { partId: '00000000-0000-4000-8000-000000000000', quantity: 1 },
        { partId: 'not-a-part', quantity: 1 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const quantities = Object.fromEntries(
      res.json().lines.map((l: { partId: string; quantity: number }) => [l.partId, l.quantity]),
    );
    expect(quantities).toEqual({ [a.id]: 5, [b.id]: 2 });
  });

  it('each customer sees only their own cart', async () => {
    const user = await createUser(ctx());
    const other = await createUser(ctx());
    const part = await insertPart(ctx().database.db);
    await call(ctx(), user, 'PUT', `/api/cart/items/${part.id}`, { quantity: 1 });
    expect((await call(ctx(), other, 'GET', '/api/cart')).json().count).toBe(0);
    expect((await ctx().app.inject({ method: 'GET', url: '/api/cart' })).statusCode).toBe(401);
  });
});
