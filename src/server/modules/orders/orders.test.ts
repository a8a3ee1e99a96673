import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { databaseChecksum } from '../../../../test/support/table-checksum.ts';
import {
  createUser,
  describeEachDatabase,
  type TestContext,
  type TestUser,
} from '../../../../test/support/test-app.ts';
import { checkOrderQuantity, type OrderablePart } from '../../../shared/order-rules.ts';
import { orderSchema } from '../../../shared/schemas/orders.ts';
import { orders } from '../../db/schema.ts';
import { insertPart, orderedQuantity, orderRow, stockOf } from './order-test-helpers.ts';

async function placeOrder(ctx: TestContext, user: TestUser, partId: string, quantity: number, extra = {}) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/myorder',
    headers: user.headers,
    payload: { partId, quantity, address: '12 Chain St', phone: '+1 555 0100', ...extra },
  });
}

/** Marks an order paid directly, as a confirmed payment would (payments have their own tests). */
async function markPaid(ctx: TestContext, orderId: string) {
  await ctx.database.db
    .update(orders)
    .set({ paid: true, status: 'paid', transactionId: `pi_test_${orderId.slice(0, 8)}` })
    .where(eq(orders.id, orderId));
}

describeEachDatabase(
  'placing orders',
  (ctx) => {
    it('needs a signed-in user', async () => {
      const part = await insertPart(ctx().database.db);
      const before = await databaseChecksum(ctx().database.db);
      for (const headers of [{}, { authorization: 'Bearer not-a-real-token-at-all-123456' }]) {
        const res = await ctx().app.inject({
          method: 'POST',
          url: '/api/myorder',
          headers,
          payload: { partId: part.id, quantity: 1 },
        });
        expect(res.statusCode).toBe(401);
        expect(res.json().error.code).toMatch(/not_signed_in|invalid_token/);
      }
      expect(await databaseChecksum(ctx().database.db)).toEqual(before);
    });

    it('stores the order with the part’s name and price and the token’s identity, and reserves the stock', async () => {
      const user = await createUser(ctx(), { displayName: 'Rita Rider' });
      const part = await insertPart(ctx().database.db, {
        name: 'Brake Pads',
        priceCents: 1999,
        availableQuantity: 40,
        minimumOrder: 2,
      });
      const res = await placeOrder(ctx(), user, part.id, 3, {
        price: 0.01,
        name: 'Free Stuff',
        userName: 'Somebody Else',
        email: 'victim@example.com',
      });
      expect(res.statusCode).toBe(201);
      const order = orderSchema.parse(res.json());
      expect(order).toMatchObject({
        partId: part.id,
        name: 'Brake Pads',
        price: 19.99,
        quantity: 3,
        total: 59.97,
        email: user.email,
        userName: 'Rita Rider',
        displayName: 'Rita Rider',
        address: '12 Chain St',
        phone: '+1 555 0100',
        paid: false,
        status: 'unpaid',
        transactionId: null,
      });
      expect(await stockOf(ctx().database.db, part.id)).toBe(37);
      const row = await orderRow(ctx().database.db, order._id);
      expect(row).toMatchObject({ unitPriceCents: 1999, totalCents: 5997, userId: user.id });
    });

    it('refuses a quantity below the part’s minimum with 422 naming the real minimum, changing nothing', async () => {
      const user = await createUser(ctx());
      const part = await insertPart(ctx().database.db, { availableQuantity: 40, minimumOrder: 7 });
      const before = await databaseChecksum(ctx().database.db);
      const res = await placeOrder(ctx(), user, part.id, 6);
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toEqual({
        code: 'below_minimum_order',
        message: 'Order At Least 7 PCS',
        details: [{ path: 'body.quantity', minimumOrder: 7 }],
      });
      expect(await databaseChecksum(ctx().database.db)).toEqual(before);
    });

    it('refuses more than the stock with 422 Stock Out and allows exactly the stock', async () => {
      const user = await createUser(ctx());
      const part = await insertPart(ctx().database.db, { availableQuantity: 12, minimumOrder: 1 });
      const before = await databaseChecksum(ctx().database.db);
      const tooMany = await placeOrder(ctx(), user, part.id, 13);
      expect(tooMany.statusCode).toBe(422);
      expect(tooMany.json().error).toMatchObject({ code: 'stock_out', message: 'Stock Out' });
      expect(await databaseChecksum(ctx().database.db)).toEqual(before);

      const all = await placeOrder(ctx(), user, part.id, 12);
      expect(all.statusCode).toBe(201);
      expect(await stockOf(ctx().database.db, part.id)).toBe(0);
      const more = await placeOrder(ctx(), user, part.id, 1);
      expect(more.statusCode).toBe(422);
      expect(more.json().error.message).toBe('Stock Out');
    });

    it('refuses an order whose total would exceed what one card payment can carry, changing nothing', async () => {
      const user = await createUser(ctx());
      const part = await insertPart(ctx().database.db, { priceCents: 100_000_000, availableQuantity: 1_000_000 });
      const before = await databaseChecksum(ctx().database.db);
      const res = await placeOrder(ctx(), user, part.id, 50_000);
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toMatchObject({
        code: 'order_too_large',
        message: expect.stringContaining('$999,999.99'),
      });
      expect(await databaseChecksum(ctx().database.db)).toEqual(before);
    });

    it('places exactly what the shared order rule allows, and refuses for the reason it gives', async () => {
      const user = await createUser(ctx());
      const cases: [Omit<OrderablePart, 'priceCents'> & { priceCents?: number }, number][] = [
        [{ minimumOrder: 3, availableQuantity: 10 }, 2],
        [{ minimumOrder: 3, availableQuantity: 10 }, 3],
        [{ minimumOrder: 3, availableQuantity: 10 }, 10],
        [{ minimumOrder: 3, availableQuantity: 10 }, 11],
        [{ minimumOrder: 5, availableQuantity: 4 }, 4],
        [{ minimumOrder: 5, availableQuantity: 4 }, 5],
        [{ minimumOrder: 1, availableQuantity: 10, priceCents: 33_333_333 }, 3],
        [{ minimumOrder: 1, availableQuantity: 10, priceCents: 33_333_334 }, 3],
      ];
      const codes = { below_minimum: 'below_minimum_order', too_large: 'order_too_large', stock_out: 'stock_out' };
      for (const [values, quantity] of cases) {
        const part = await insertPart(ctx().database.db, values);
        const rule = checkOrderQuantity(part, quantity);
        const res = await placeOrder(ctx(), user, part.id, quantity);
        const label = `${JSON.stringify(values)} × ${quantity}`;
        if (rule.ok) {
          expect(res.statusCode, label).toBe(201);
          expect(res.json().total, label).toBe(rule.totalCents / 100);
        } else {
          expect(res.statusCode, label).toBe(422);
          expect(res.json().error, label).toMatchObject({
            code: codes[rule.reason as keyof typeof codes],
            message: rule.message,
          });
        }
      }
    });

    it('answers an unknown or malformed part with 404', async () => {
      const user = await createUser(ctx());
      for (const partId of ['00000000-0000-4000-8000-000000000000', 'nope', "1' or 1=1 --"]) {
        const res = await placeOrder(ctx(), user, partId, 1);
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('not_found');
      }
    });

    it('rejects bad bodies with 400 in the error shape and changes nothing', async () => {
      const user = await createUser(ctx());
      const part = await insertPart(ctx().database.db);
      const before = await databaseChecksum(ctx().database.db);
      const bodies: unknown[] = [
        { partId: part.id, quantity: 0 },
        { partId: part.id, quantity: -3 },
        { partId: part.id, quantity: 1.5 },
        { partId: part.id, quantity: '5' },
        { partId: part.id },
        { quantity: 2 },
        { partId: part.id, quantity: 2, admin: true },
        { partId: part.id, quantity: 2, phone: 'call me maybe' },
        { partId: part.id, quantity: 2, address: 'x'.repeat(301) },
        { partId: part.id, quantity: 2_000_000 },
      ];
      for (const payload of bodies) {
        const res = await ctx().app.inject({
          method: 'POST',
          url: '/api/myorder',
          headers: user.headers,
          payload: payload as object,
        });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().error.code).toBe('invalid_data');
      }
      expect(await databaseChecksum(ctx().database.db)).toEqual(before);
      // The message is the spec's sentence alone (a form shows it); which field it is about is in the details.
      const zero = await ctx().app.inject({
        method: 'POST',
        url: '/api/myorder',
        headers: user.headers,
        payload: { partId: part.id, quantity: 0 },
      });
      expect(zero.json().error).toMatchObject({
        message: 'Quantity Must Be At Least 1',
        details: [{ path: 'body.quantity', message: 'Quantity Must Be At Least 1' }],
      });
    });

    it('sells exactly the last 50 units to 200 simultaneous buyers, never below zero', async () => {
      const part = await insertPart(ctx().database.db, { availableQuantity: 50, minimumOrder: 1 });
      const buyers = await Promise.all(Array.from({ length: 20 }, () => createUser(ctx())));
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => placeOrder(ctx(), buyers[i % buyers.length] as TestUser, part.id, 1)),
      );
      const statuses = results.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 201)).toHaveLength(50);
      expect(statuses.filter((s) => s === 422)).toHaveLength(150);
      for (const r of results.filter((x) => x.statusCode === 422)) expect(r.json().error.message).toBe('Stock Out');
      expect(await stockOf(ctx().database.db, part.id)).toBe(0);
      expect(await orderedQuantity(ctx().database.db, part.id)).toBe(50);
    });

    it('keeps stock + ordered = starting stock under mixed concurrent quantities', async () => {
      const part = await insertPart(ctx().database.db, { availableQuantity: 50, minimumOrder: 1 });
      const buyer = await createUser(ctx());
      const quantities = Array.from({ length: 120 }, (_, i) => (i % 4) + 1);
      const results = await Promise.all(quantities.map((q) => placeOrder(ctx(), buyer, part.id, q)));
      const sold = results.reduce((sum, r, i) => sum + (r.statusCode === 201 ? (quantities[i] ?? 0) : 0), 0);
      for (const r of results) expect([201, 422]).toContain(r.statusCode);
      const stock = await stockOf(ctx().database.db, part.id);
      expect(stock).toBeGreaterThanOrEqual(0);
      expect(stock).toBeLessThan(4);
      expect(sold + stock).toBe(50);
      expect(await orderedQuantity(ctx().database.db, part.id)).toBe(sold);
    });
    // These tests are about the order rule and the stock guard; the hold limit (on by default) has its own file.
  },
  { ORDER_HOLD_LIMIT: 'off' },
);

describeEachDatabase('reading orders', (ctx) => {
  it('lists only the caller’s own orders, newest first', async () => {
    const ann = await createUser(ctx());
    const bob = await createUser(ctx());
    const part = await insertPart(ctx().database.db);
    const first = (await placeOrder(ctx(), ann, part.id, 1)).json();
    const second = (await placeOrder(ctx(), ann, part.id, 2)).json();
    await placeOrder(ctx(), bob, part.id, 3);

    for (const url of [
      '/api/myorder',
      `/api/myorder?email=${encodeURIComponent(ann.email)}`,
      `/api/myorder?email=${encodeURIComponent(ann.email.toUpperCase())}`,
    ]) {
      const res = await ctx().app.inject({ method: 'GET', url, headers: ann.headers });
      expect(res.statusCode).toBe(200);
      expect(res.json().map((o: { _id: string }) => o._id)).toEqual([second._id, first._id]);
    }
  });

  it('refuses another customer’s email with 403, allows an admin, and needs sign-in', async () => {
    const ann = await createUser(ctx());
    const bob = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const part = await insertPart(ctx().database.db);
    await placeOrder(ctx(), ann, part.id, 1);
    const url = `/api/myorder?email=${encodeURIComponent(ann.email)}`;

    expect((await ctx().app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const asBob = await ctx().app.inject({ method: 'GET', url, headers: bob.headers });
    expect(asBob.statusCode).toBe(403);
    expect(asBob.json().error.code).toBe('forbidden');
    const asAdmin = await ctx().app.inject({ method: 'GET', url, headers: admin.headers });
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json()).toHaveLength(1);
    expect(asAdmin.json()[0].email).toBe(ann.email);
  });

  it('shows one order to its buyer and to admins only; anyone else gets 404', async () => {
    const ann = await createUser(ctx());
    const bob = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const part = await insertPart(ctx().database.db);
    const order = (await placeOrder(ctx(), ann, part.id, 1)).json();
    const url = `/api/myorder/${order._id}`;

    expect((await ctx().app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await ctx().app.inject({ method: 'GET', url, headers: ann.headers })).json()._id).toBe(order._id);
    expect((await ctx().app.inject({ method: 'GET', url, headers: admin.headers })).statusCode).toBe(200);
    const foreign = await ctx().app.inject({ method: 'GET', url, headers: bob.headers });
    expect(foreign.statusCode).toBe(404);
    expect(JSON.stringify(foreign.json())).not.toContain(ann.email);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(
      (await ctx().app.inject({ method: 'GET', url: `/api/myorder/${unknown}`, headers: ann.headers })).statusCode,
    ).toBe(404);
    const garbage = await ctx().app.inject({ method: 'GET', url: '/api/myorder/garbage', headers: ann.headers });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().error.code).toBe('invalid_data');
  });

  it('lists every order to admins only, newest first, with paging and X-Total-Count', async () => {
    const ann = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const part = await insertPart(ctx().database.db);
    const placed = [];
    for (let i = 1; i <= 3; i++) placed.push((await placeOrder(ctx(), ann, part.id, i)).json()._id);

    expect((await ctx().app.inject({ method: 'GET', url: '/api/allorder' })).statusCode).toBe(401);
    expect((await ctx().app.inject({ method: 'GET', url: '/api/allorder', headers: ann.headers })).statusCode).toBe(
      403,
    );
    const all = await ctx().app.inject({ method: 'GET', url: '/api/allorder', headers: admin.headers });
    expect(all.statusCode).toBe(200);
    const ids = all.json().map((o: { _id: string }) => o._id);
    expect(ids.slice(0, 3)).toEqual([...placed].reverse());
    const total = Number(all.headers['x-total-count']);
    expect(total).toBe(ids.length);

    const page = await ctx().app.inject({
      method: 'GET',
      url: '/api/allorder?limit=2&offset=1',
      headers: admin.headers,
    });
    expect(page.json().map((o: { _id: string }) => o._id)).toEqual(ids.slice(1, 3));
    expect(page.headers['x-total-count']).toBe(String(total));
    const bad = await ctx().app.inject({ method: 'GET', url: '/api/allorder?limit=0', headers: admin.headers });
    expect(bad.statusCode).toBe(400);
  });
});

describeEachDatabase('deleting orders', (ctx) => {
  it('lets the buyer delete an unpaid order and gives the stock back', async () => {
    const ann = await createUser(ctx());
    const part = await insertPart(ctx().database.db, { availableQuantity: 30 });
    const order = (await placeOrder(ctx(), ann, part.id, 8)).json();
    expect(await stockOf(ctx().database.db, part.id)).toBe(22);
    const res = await ctx().app.inject({ method: 'DELETE', url: `/api/myorder/${order._id}`, headers: ann.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deletedCount: 1 });
    expect(await stockOf(ctx().database.db, part.id)).toBe(30);
    // Delete means cancel: the row stays, cancelled, and leaves the buyer's list.
    expect(await orderRow(ctx().database.db, order._id)).toMatchObject({ status: 'cancelled', cancelReason: 'buyer' });
    const mine = await ctx().app.inject({ method: 'GET', url: '/api/myorder', headers: ann.headers });
    expect(mine.json().map((o: { _id: string }) => o._id)).not.toContain(order._id);
    const again = await ctx().app.inject({ method: 'DELETE', url: `/api/myorder/${order._id}`, headers: ann.headers });
    expect(again.statusCode).toBe(404);
    expect(await stockOf(ctx().database.db, part.id)).toBe(30);
  });

  it('refuses anonymous callers and other customers, and lets an admin delete', async () => {
    const ann = await createUser(ctx());
    const bob = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const part = await insertPart(ctx().database.db, { availableQuantity: 30 });
    const order = (await placeOrder(ctx(), ann, part.id, 5)).json();
    const url = `/api/myorder/${order._id}`;
    const before = await databaseChecksum(ctx().database.db);
    expect((await ctx().app.inject({ method: 'DELETE', url })).statusCode).toBe(401);
    expect((await ctx().app.inject({ method: 'DELETE', url, headers: bob.headers })).statusCode).toBe(404);
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);
    expect((await ctx().app.inject({ method: 'DELETE', url, headers: admin.headers })).statusCode).toBe(200);
    expect(await stockOf(ctx().database.db, part.id)).toBe(30);
  });

  it('refuses to delete a paid or shipped order with 409 and changes nothing', async () => {
    const ann = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const part = await insertPart(ctx().database.db);
    const order = (await placeOrder(ctx(), ann, part.id, 2)).json();
    await markPaid(ctx(), order._id);
    const before = await databaseChecksum(ctx().database.db);
    for (const user of [ann, admin]) {
      const res = await ctx().app.inject({ method: 'DELETE', url: `/api/myorder/${order._id}`, headers: user.headers });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('order_paid');
    }
    await ctx().app.inject({ method: 'PATCH', url: `/api/allorder/${order._id}/ship`, headers: admin.headers });
    const shippedBefore = await databaseChecksum(ctx().database.db);
    expect(shippedBefore).not.toEqual(before);
    const res = await ctx().app.inject({ method: 'DELETE', url: `/api/myorder/${order._id}`, headers: ann.headers });
    expect(res.statusCode).toBe(409);
    expect(await databaseChecksum(ctx().database.db)).toEqual(shippedBefore);
  });

  it('keeps the order when its part is deleted (name and price are copies)', async () => {
    const ann = await createUser(ctx());
    const part = await insertPart(ctx().database.db, { name: 'Gone Part', priceCents: 500 });
    const order = (await placeOrder(ctx(), ann, part.id, 2)).json();
    const { parts } = await import('../../db/schema.ts');
    await ctx().database.db.delete(parts).where(eq(parts.id, part.id));
    const res = await ctx().app.inject({ method: 'GET', url: `/api/myorder/${order._id}`, headers: ann.headers });
    expect(res.json()).toMatchObject({ partId: null, name: 'Gone Part', price: 5, total: 10 });
    const del = await ctx().app.inject({ method: 'DELETE', url: `/api/myorder/${order._id}`, headers: ann.headers });
    expect(del.statusCode).toBe(200);
  });
});

describeEachDatabase('shipping orders', (ctx) => {
  it('lets only admins ship, only paid orders, idempotently', async () => {
    const ann = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const part = await insertPart(ctx().database.db);
    const order = (await placeOrder(ctx(), ann, part.id, 1)).json();
    const url = `/api/allorder/${order._id}/ship`;

    expect((await ctx().app.inject({ method: 'PATCH', url })).statusCode).toBe(401);
    expect((await ctx().app.inject({ method: 'PATCH', url, headers: ann.headers })).statusCode).toBe(403);
    const before = await databaseChecksum(ctx().database.db);
    const unpaid = await ctx().app.inject({ method: 'PATCH', url, headers: admin.headers });
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json().error.code).toBe('order_not_paid');
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);

    await markPaid(ctx(), order._id);
    const shipped = await ctx().app.inject({ method: 'PATCH', url, headers: admin.headers });
    expect(shipped.statusCode).toBe(200);
    expect(shipped.json()).toMatchObject({ status: 'shipped', paid: true });
    const after = await databaseChecksum(ctx().database.db);
    const again = await ctx().app.inject({ method: 'PATCH', url, headers: admin.headers });
    expect(again.statusCode).toBe(200);
    expect(again.json().status).toBe('shipped');
    expect(await databaseChecksum(ctx().database.db)).toEqual(after);

    const mine = await ctx().app.inject({ method: 'GET', url: '/api/myorder', headers: ann.headers });
    expect(mine.json()[0].status).toBe('shipped');
    const missing = await ctx().app.inject({
      method: 'PATCH',
      url: '/api/allorder/00000000-0000-4000-8000-000000000000/ship',
      headers: admin.headers,
    });
    expect(missing.statusCode).toBe(404);
  });
});
