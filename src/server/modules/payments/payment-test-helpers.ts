import { expect } from 'vitest';
import type { TestContext, TestUser } from '../../../../test/support/test-app.ts';
import { insertPart } from '../orders/order-test-helpers.ts';

/** An unpaid order of `user` for a fresh part, placed through the API (payments tests pay for it). */
export async function orderFor(
  ctx: TestContext,
  user: TestUser,
  options: { priceCents?: number; quantity?: number } = {},
) {
  const part = await insertPart(ctx.database.db, { priceCents: options.priceCents ?? 1250, availableQuantity: 100 });
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/myorder',
    headers: user.headers,
    // An order is paid only with a shipping address.
    payload: { partId: part.id, quantity: options.quantity ?? 3, address: '1 Pay Street', phone: '+1 555 0100' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { _id: string; total: number };
}

/** `POST /api/create-payment-intent` for an order, with whatever else the body should carry. */
export async function intentFor(ctx: TestContext, user: TestUser, orderId: string, extra = {}) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/create-payment-intent',
    headers: user.headers,
    payload: { orderId, ...extra },
  });
}
