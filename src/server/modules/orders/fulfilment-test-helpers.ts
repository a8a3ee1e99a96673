import { and, asc, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestContext, TestUser } from '../../../../test/support/test-app.ts';
import { mailOutbox, orders } from '../../db/schema.ts';

/** Places an order through the API (with an address, so it can be paid) and answers it. */
export async function placeOrder(ctx: TestContext, user: TestUser, partId: string, quantity: number) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/myorder',
    headers: user.headers,
    payload: { partId, quantity, address: '7 Piston Row, Leeds', phone: '+44 113 000 0000' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { _id: string; total: number; quantity: number };
}

/** The built-in test gateway's card form paying an intent (with 4242… unless told); answers the gateway's response. */
export function confirmTestCard(ctx: TestContext, user: TestUser, clientSecret: string, number = '4242424242424242') {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/payments/test-gateway/confirm',
    headers: user.headers,
    payload: {
      clientSecret,
      card: { number, expMonth: 12, expYear: new Date().getUTCFullYear() + 1, cvc: '123' },
    },
  });
}

/**
 * Pays an order as the buyer's browser does with the built-in test gateway: intent, card 4242…, then the spec's
 * PATCH with the transaction id. Answers the PATCH's response (tests of races look at refusals too).
 */
export async function payOrder(ctx: TestContext, user: TestUser, orderId: string) {
  const intent = await ctx.app.inject({
    method: 'POST',
    url: '/api/create-payment-intent',
    headers: user.headers,
    payload: { orderId },
  });
  if (intent.statusCode !== 200) return intent;
  const confirm = await confirmTestCard(ctx, user, intent.json().clientSecret);
  if (confirm.statusCode !== 200) return confirm;
  return ctx.app.inject({
    method: 'PATCH',
    url: `/api/myorder/${orderId}`,
    headers: user.headers,
    payload: { transactionId: confirm.json().transactionId },
  });
}

/** The mails of one kind written to the outbox for an address, oldest first (bodies kept until sent). */
export async function outboxMails(ctx: TestContext, to: string, kind: string) {
  return ctx.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.recipient, to), eq(mailOutbox.kind, kind)))
    .orderBy(asc(mailOutbox.createdAt));
}

/** Moves an order's placing time into the past, as if it had been placed `hours` ago. */
export async function agePlacedOrder(ctx: TestContext, orderId: string, hours: number) {
  await ctx.database.db
    .update(orders)
    .set({ createdAt: sql`now() - make_interval(secs => ${hours * 3600}::double precision)` })
    .where(eq(orders.id, orderId));
}
