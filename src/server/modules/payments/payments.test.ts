import { count, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { databaseChecksum } from '../../../../test/support/table-checksum.ts';
import {
  createUser,
  describeEachDatabase,
  type TestContext,
  type TestUser,
} from '../../../../test/support/test-app.ts';
import { paymentAttempts, paymentIntents } from '../../db/schema.ts';
import { orderRow } from '../orders/order-test-helpers.ts';
import { intentFor, orderFor } from './payment-test-helpers.ts';

const nextYear = new Date().getUTCFullYear() + 1;
const card = (number: string, extra: Partial<{ expMonth: number; expYear: number; cvc: string }> = {}) => ({
  number,
  expMonth: 12,
  expYear: nextYear,
  cvc: '123',
  ...extra,
});

async function confirm(ctx: TestContext, user: TestUser, clientSecret: string, number: string, extra = {}) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/payments/test-gateway/confirm',
    headers: user.headers,
    payload: { clientSecret, card: card(number, extra), billingDetails: { name: 'Ann Buyer', email: user.email } },
  });
}

async function markPaid(ctx: TestContext, user: TestUser, orderId: string, transactionId: string) {
  return ctx.app.inject({
    method: 'PATCH',
    url: `/api/myorder/${orderId}`,
    headers: user.headers,
    payload: { transactionId },
  });
}

describeEachDatabase('payments with the built-in test gateway', (ctx) => {
  it('tells the web which provider to use', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/payments/config' });
    expect(res.json()).toEqual({ provider: 'test', publishableKey: null });
  });

  it('computes the amount from the order, ignores a client price, and returns the same intent when asked again', async () => {
    const ann = await createUser(ctx());
    const order = await orderFor(ctx(), ann, { priceCents: 1250, quantity: 3 });
    const first = await intentFor(ctx(), ann, order._id, { price: 0.01 });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ provider: 'test', publishableKey: null, amount: 37.5, currency: 'usd' });
    expect(first.json().clientSecret).toMatch(/^pi_\w+_secret_/);
    const again = await intentFor(ctx(), ann, order._id);
    expect(again.json().clientSecret).toBe(first.json().clientSecret);
    const parallel = await Promise.all([1, 2, 3, 4].map(() => intentFor(ctx(), ann, order._id)));
    for (const res of parallel) expect(res.json().clientSecret).toBe(first.json().clientSecret);
    const [row] = await ctx()
      .database.db.select({ n: count() })
      .from(paymentIntents)
      .where(eq(paymentIntents.orderId, order._id));
    expect(row?.n).toBe(1);
    const [intent] = await ctx().database.db.select().from(paymentIntents).where(eq(paymentIntents.orderId, order._id));
    expect(intent?.amountCents).toBe(3750);
  });

  it('lets only the buyer start a payment', async () => {
    const ann = await createUser(ctx());
    const bob = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const order = await orderFor(ctx(), ann);
    const before = await databaseChecksum(ctx().database.db);
    const anonymous = await ctx().app.inject({
      method: 'POST',
      url: '/api/create-payment-intent',
      payload: { orderId: order._id },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await intentFor(ctx(), bob, order._id)).statusCode).toBe(404);
    expect((await intentFor(ctx(), admin, order._id)).statusCode).toBe(403);
    expect((await intentFor(ctx(), ann, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await intentFor(ctx(), ann, 'not-an-id')).statusCode).toBe(404);
    const bad = await ctx().app.inject({
      method: 'POST',
      url: '/api/create-payment-intent',
      headers: ann.headers,
      payload: { price: 10 },
    });
    expect(bad.statusCode).toBe(400);
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);
  });

  it('pays with 4242 4242 4242 4242: the gateway succeeds and the server marks the order paid after checking', async () => {
    const ann = await createUser(ctx());
    const order = await orderFor(ctx(), ann);
    const { clientSecret } = (await intentFor(ctx(), ann, order._id)).json();
    const paid = await confirm(ctx(), ann, clientSecret, '4242 4242 4242 4242');
    expect(paid.statusCode).toBe(200);
    const { transactionId, chargeId, status } = paid.json();
    expect(status).toBe('succeeded');
    expect(transactionId).toMatch(/^pi_[A-Za-z0-9]{24}$/);
    expect(chargeId).toMatch(/^ch_[A-Za-z0-9]{24}$/);
    // The gateway alone does not mark the order: the client's PATCH, verified by the server, does.
    expect((await orderRow(ctx().database.db, order._id))?.paid).toBe(false);

    const res = await markPaid(ctx(), ann, order._id, transactionId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ paid: true, status: 'paid', transactionId });
    const row = await orderRow(ctx().database.db, order._id);
    expect(row?.paidAt).toBeInstanceOf(Date);

    // Idempotent: the same id again answers 200 and changes nothing.
    const before = await databaseChecksum(ctx().database.db);
    const again = await markPaid(ctx(), ann, order._id, transactionId);
    expect(again.statusCode).toBe(200);
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);

    // No second payment: no new intent, no second confirmation, no other transaction id.
    expect((await intentFor(ctx(), ann, order._id)).statusCode).toBe(409);
    expect((await confirm(ctx(), ann, clientSecret, '4242424242424242')).statusCode).toBe(409);
    const other = await markPaid(ctx(), ann, order._id, 'pi_someothertransaction0000');
    expect(other.statusCode).toBe(409);
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);
  });

  it('declines 4000 0000 0000 0002 and 9995 with Stripe’s messages, records the attempt, leaves the order unpaid', async () => {
    const ann = await createUser(ctx());
    const order = await orderFor(ctx(), ann);
    const { clientSecret } = (await intentFor(ctx(), ann, order._id)).json();
    const declined = await confirm(ctx(), ann, clientSecret, '4000 0000 0000 0002');
    expect(declined.statusCode).toBe(402);
    expect(declined.json().error).toMatchObject({ code: 'card_declined', message: 'Your card was declined.' });
    const poor = await confirm(ctx(), ann, clientSecret, '4000000000009995');
    expect(poor.statusCode).toBe(402);
    expect(poor.json().error.message).toBe('Your card has insufficient funds.');
    const attempts = await ctx()
      .database.db.select()
      .from(paymentAttempts)
      .innerJoin(paymentIntents, eq(paymentIntents.id, paymentAttempts.intentId))
      .where(eq(paymentIntents.orderId, order._id));
    expect(
      attempts.map((a) => [a.payment_attempts.outcome, a.payment_attempts.declineCode, a.payment_attempts.cardLast4]),
    ).toEqual(
      expect.arrayContaining([
        ['declined', 'generic_decline', '0002'],
        ['declined', 'insufficient_funds', '9995'],
      ]),
    );
    const row = await orderRow(ctx().database.db, order._id);
    expect(row).toMatchObject({ paid: false, status: 'unpaid', transactionId: null });
    // The intent id of a declined payment does not pay the order.
    const [intent] = await ctx().database.db.select().from(paymentIntents).where(eq(paymentIntents.orderId, order._id));
    const fake = await markPaid(ctx(), ann, order._id, intent?.id ?? '');
    expect(fake.statusCode).toBe(422);
    expect(fake.json().error.code).toBe('payment_not_succeeded');
    // A good card after a decline still works.
    expect((await confirm(ctx(), ann, clientSecret, '4242424242424242')).statusCode).toBe(200);
  });

  it('checks the card number, expiry and CVC like Stripe, without creating a charge', async () => {
    const ann = await createUser(ctx());
    const order = await orderFor(ctx(), ann);
    const { clientSecret } = (await intentFor(ctx(), ann, order._id)).json();
    const before = await databaseChecksum(ctx().database.db);
    const cases: [string, Record<string, unknown>, string][] = [
      ['4242 4242 4242 4241', {}, 'Your card number is incorrect.'],
      ['4242', {}, 'Your card number is incomplete.'],
      ['4242424242424242', { expMonth: 13 }, "Your card's expiration month is invalid."],
      ['4242424242424242', { expYear: 2020 }, "Your card's expiration year is invalid."],
      ['4242424242424242', { cvc: '12' }, "Your card's security code is invalid."],
      ['4242424242424242', { cvc: 'abc' }, "Your card's security code is invalid."],
    ];
    for (const [number, extra, message] of cases) {
      const res = await confirm(ctx(), ann, clientSecret, number, extra);
      expect(res.statusCode, message).toBe(402);
      expect(res.json().error.message).toBe(message);
    }
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);
  });

  it('refuses an unknown client secret or someone else’s, and an anonymous caller', async () => {
    const ann = await createUser(ctx());
    const bob = await createUser(ctx());
    const order = await orderFor(ctx(), ann);
    const { clientSecret } = (await intentFor(ctx(), ann, order._id)).json();
    const before = await databaseChecksum(ctx().database.db);
    expect((await confirm(ctx(), ann, 'pi_nope_secret_nope', '4242424242424242')).statusCode).toBe(400);
    expect((await confirm(ctx(), bob, clientSecret, '4242424242424242')).statusCode).toBe(400);
    const anonymous = await ctx().app.inject({
      method: 'POST',
      url: '/api/payments/test-gateway/confirm',
      payload: { clientSecret, card: card('4242424242424242') },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);
  });

  it('refuses fake transaction ids, other orders’ payments and other people’s orders; changes nothing', async () => {
    const ann = await createUser(ctx());
    const bob = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const cheap = await orderFor(ctx(), ann, { priceCents: 100, quantity: 1 });
    const dear = await orderFor(ctx(), ann, { priceCents: 90000, quantity: 2 });
    const { clientSecret } = (await intentFor(ctx(), ann, cheap._id)).json();
    const { transactionId } = (await confirm(ctx(), ann, clientSecret, '4242424242424242')).json();
    await intentFor(ctx(), ann, dear._id);
    const before = await databaseChecksum(ctx().database.db);

    // A real, succeeded payment for a $1 order does not pay the $1,800 one.
    const reused = await markPaid(ctx(), ann, dear._id, transactionId);
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error.code).toBe('payment_not_found');
    for (const fake of ['pi_fake', 'ch_123', 'anything', "' or 1=1 --"]) {
      const res = await markPaid(ctx(), ann, dear._id, fake);
      expect(res.statusCode).toBe(422);
    }
    expect((await markPaid(ctx(), bob, cheap._id, transactionId)).statusCode).toBe(404);
    expect((await markPaid(ctx(), admin, cheap._id, transactionId)).statusCode).toBe(403);
    const anonymous = await ctx().app.inject({
      method: 'PATCH',
      url: `/api/myorder/${cheap._id}`,
      payload: { transactionId },
    });
    expect(anonymous.statusCode).toBe(401);
    const empty = await markPaid(ctx(), ann, cheap._id, '');
    expect(empty.statusCode).toBe(400);
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);
    // The rightful PATCH still works afterwards, with the spec's extra `order` field.
    const ok = await ctx().app.inject({
      method: 'PATCH',
      url: `/api/myorder/${cheap._id}`,
      headers: ann.headers,
      payload: { transactionId, order: cheap._id },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('lets two simultaneous confirmations of one intent succeed only once', async () => {
    const ann = await createUser(ctx());
    const order = await orderFor(ctx(), ann);
    const { clientSecret } = (await intentFor(ctx(), ann, order._id)).json();
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => confirm(ctx(), ann, clientSecret, '4242424242424242')));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(4);
    const transactionId = results.find((r) => r.statusCode === 200)?.json().transactionId;
    const patches = await Promise.all([1, 2, 3].map(() => markPaid(ctx(), ann, order._id, transactionId)));
    for (const res of patches) expect(res.statusCode).toBe(200);
  });

  it('has no Stripe webhook when Stripe is not the provider', async () => {
    const res = await ctx().app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' },
      payload: '{"id":"evt_1"}',
    });
    expect(res.statusCode).toBe(404);
  });
});
