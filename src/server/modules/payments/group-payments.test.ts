import crypto from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { expect, it } from 'vitest';
import { stripeEvent } from '../../../../test/support/stripe-stand-in.ts';
import { stripeStandInForFile } from '../../../../test/support/stripe-stand-in-suite.ts';
import {
  createUser,
  describeEachDatabase,
  type TestContext,
  type TestUser,
} from '../../../../test/support/test-app.ts';
import { orders, paymentIntentOrders } from '../../db/schema.ts';
import { confirmTestCard } from '../orders/fulfilment-test-helpers.ts';
import { insertPart } from '../orders/order-test-helpers.ts';

const shipTo = { address: '9 Group Road', phone: '+1 555 0109' };

/** Three orders of `user` through the cart and one checkout: $10 + $51 + $9.98. */
async function checkoutOfThree(ctx: TestContext, user: TestUser): Promise<string[]> {
  const lines = [
    { priceCents: 1000, quantity: 1 },
    { priceCents: 2550, quantity: 2 },
    { priceCents: 499, quantity: 2 },
  ];
  for (const line of lines) {
    const part = await insertPart(ctx.database.db, { priceCents: line.priceCents, availableQuantity: 50 });
    await ctx.app.inject({
      method: 'PUT',
      url: `/api/cart/items/${part.id}`,
      headers: user.headers,
      payload: { quantity: line.quantity },
    });
  }
  const res = await ctx.app.inject({ method: 'POST', url: '/api/checkout', headers: user.headers, payload: shipTo });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().orders.map((order: { _id: string }) => order._id);
}

async function placeOne(ctx: TestContext, user: TestUser, body: object = shipTo): Promise<string> {
  const part = await insertPart(ctx.database.db, { priceCents: 1200, availableQuantity: 50 });
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/myorder',
    headers: user.headers,
    payload: { partId: part.id, quantity: 1, ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json()._id;
}

function intent(ctx: TestContext, user: TestUser, body: object, key?: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/create-payment-intent',
    headers: { ...user.headers, ...(key ? { 'idempotency-key': key } : {}) },
    payload: body,
  });
}

function confirm(ctx: TestContext, user: TestUser, transactionId: string, key?: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/payments/confirm',
    headers: { ...user.headers, ...(key ? { 'idempotency-key': key } : {}) },
    payload: { transactionId },
  });
}

async function payAtTestGateway(ctx: TestContext, user: TestUser, clientSecret: string): Promise<string> {
  const res = await confirmTestCard(ctx, user, clientSecret);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().transactionId;
}

async function rowsOf(ctx: TestContext, ids: string[]) {
  return ctx.database.db.select().from(orders).where(inArray(orders.id, ids));
}

/** One payment for several orders (ADR 011). */
describeEachDatabase('one payment for several orders (test gateway)', (ctx) => {
  it('one intent for a checkout’s orders, its amount from the server; one card entry pays them all', async () => {
    const user = await createUser(ctx());
    const ids = await checkoutOfThree(ctx(), user);
    const first = await intent(ctx(), user, { orderIds: ids, price: 1 });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ provider: 'test', amount: 70.98, currency: 'usd' });
    // Asking again, the ids in another order, returns the same intent.
    const again = await intent(ctx(), user, { orderIds: [...ids].reverse() });
    expect(again.json().clientSecret).toBe(first.json().clientSecret);
    const links = await ctx()
      .database.db.select()
      .from(paymentIntentOrders)
      .where(inArray(paymentIntentOrders.orderId, ids));
    expect(links).toHaveLength(3);

    const transactionId = await payAtTestGateway(ctx(), user, first.json().clientSecret);
    const key = crypto.randomUUID();
    const res = await confirm(ctx(), user, transactionId, key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().transactionId).toBe(transactionId);
    expect(res.json().orders).toHaveLength(3);
    const rows = await rowsOf(ctx(), ids);
    expect(rows.every((row) => row.paid && row.status === 'paid' && row.transactionId === transactionId)).toBe(true);
    // The same key again replays; a confirmation without a key is a no-op 200.
    const replay = await confirm(ctx(), user, transactionId, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await confirm(ctx(), user, transactionId)).statusCode).toBe(200);
    // Paid orders cannot be paid again.
    expect((await intent(ctx(), user, { orderIds: ids })).statusCode).toBe(409);
  });

  it('Pay All Unpaid: orders placed one by one are paid with one transaction id', async () => {
    const user = await createUser(ctx());
    const ids = [await placeOne(ctx(), user), await placeOne(ctx(), user)];
    const created = await intent(ctx(), user, { orderIds: ids });
    expect(created.json().amount).toBe(24);
    const transactionId = await payAtTestGateway(ctx(), user, created.json().clientSecret);
    expect((await confirm(ctx(), user, transactionId)).statusCode).toBe(200);
    const rows = await rowsOf(ctx(), ids);
    expect(new Set(rows.map((row) => row.transactionId))).toEqual(new Set([transactionId]));
  });

  it('refuses a group with an order without an address (422, naming it), a paid one (409) or someone else’s (404)', async () => {
    const user = await createUser(ctx());
    const addressed = await placeOne(ctx(), user);
    const bare = await placeOne(ctx(), user, {});
    const res = await intent(ctx(), user, { orderIds: [addressed, bare] });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({ code: 'address_required', details: [{ orderId: bare }] });

    const other = await createUser(ctx());
    const theirs = await placeOne(ctx(), other);
    expect((await intent(ctx(), user, { orderIds: [addressed, theirs] })).statusCode).toBe(404);

    await ctx()
      .database.db.update(orders)
      .set({ paid: true, status: 'paid', transactionId: 'pi_elsewhere' })
      .where(eq(orders.id, addressed));
    const second = await placeOne(ctx(), user);
    expect((await intent(ctx(), user, { orderIds: [addressed, second] })).statusCode).toBe(409);
    // Both forms at once, or neither, is bad input.
    expect((await intent(ctx(), user, { orderId: second, orderIds: [second] })).statusCode).toBe(400);
    expect((await intent(ctx(), user, {})).statusCode).toBe(400);
  });

  it('a confirmation by someone else, or of a payment that has not succeeded, pays nothing', async () => {
    const user = await createUser(ctx());
    const ids = await checkoutOfThree(ctx(), user);
    const { clientSecret } = (await intent(ctx(), user, { orderIds: ids })).json();
    const intentId = clientSecret.split('_secret_')[0];
    const early = await confirm(ctx(), user, intentId);
    expect(early.statusCode).toBe(422);
    expect(early.json().error.code).toBe('payment_not_succeeded');
    await payAtTestGateway(ctx(), user, clientSecret);
    const other = await createUser(ctx());
    expect((await confirm(ctx(), other, intentId)).json().error.code).toBe('payment_not_found');
    expect((await confirm(ctx(), user, 'pi_made_up_000000')).statusCode).toBe(422);
    expect((await rowsOf(ctx(), ids)).some((row) => row.paid)).toBe(false);
  });

  it('no order is paid twice: a newer payment for the same orders retires the older one, whose card step is refused', async () => {
    const user = await createUser(ctx());
    const ids = await checkoutOfThree(ctx(), user);
    const [first = ''] = ids;
    // The order's own payment page, then Pay All Unpaid for the three: the order's own intent is cancelled.
    const own = (await intent(ctx(), user, { orderId: first })).json().clientSecret as string;
    const group = (await intent(ctx(), user, { orderIds: ids })).json().clientSecret as string;
    const ownRefused = await confirmTestCard(ctx(), user, own);
    expect(ownRefused.statusCode, ownRefused.body).toBe(409);
    expect(ownRefused.json().error.message).toMatch(/replaced by a newer one/);

    // Back to the order's own page: a NEW intent (the cancelled one stays, as a record), and the group's is retired.
    const again = (await intent(ctx(), user, { orderId: first })).json().clientSecret as string;
    expect(again).not.toBe(own);
    expect((await confirmTestCard(ctx(), user, group)).statusCode).toBe(409);
    const paidWith = await payAtTestGateway(ctx(), user, again);
    expect((await confirm(ctx(), user, paidWith)).statusCode).toBe(200);

    // Paid: no payment can be offered for it any more, alone or with the others; the other two are still payable.
    expect((await intent(ctx(), user, { orderIds: ids })).statusCode).toBe(409);
    const rest = await intent(ctx(), user, { orderIds: ids.slice(1) });
    expect(rest.statusCode, rest.body).toBe(200);
    const rows = await rowsOf(ctx(), ids);
    expect(rows.filter((row) => row.paid).map((row) => row.id)).toEqual([first]);
  });

  it('two payments for the same order confirmed side by side: exactly one goes through', async () => {
    const user = await createUser(ctx());
    const ids = await checkoutOfThree(ctx(), user);
    const [first = ''] = ids;
    const group = (await intent(ctx(), user, { orderIds: ids })).json().clientSecret as string;
    // A second live intent for the first order, as two overlapping payment pages opened at once could leave behind
    // (written directly: the service itself retires the older one).
    const own = (await intent(ctx(), user, { orderId: first })).json().clientSecret as string;
    const ownId = own.split('_secret_')[0] ?? '';
    const groupId = group.split('_secret_')[0] ?? '';
    await ctx().database.db.execute(
      sql`update payment_intents set status = 'requires_payment_method' where id in (${ownId}, ${groupId})`,
    );
    const results = await Promise.all([confirmTestCard(ctx(), user, own), confirmTestCard(ctx(), user, group)]);
    expect(results.map((res) => res.statusCode).sort()).toEqual([200, 409]);
  });
});

const WEBHOOK_SECRET = 'whsec_group_standin_secret_0123456789';
const stripe = stripeStandInForFile({ webhookSecret: WEBHOOK_SECRET, publishableKey: 'pk_test_group_0123456789' });

describeEachDatabase(
  'one payment for several orders (Stripe, SDK against a local stand-in)',
  (ctx) => {
    it('creates one PaymentIntent for the group and the signed webhook marks every order paid, once', async () => {
      const user = await createUser(ctx());
      const ids = await checkoutOfThree(ctx(), user);
      const res = await intent(ctx(), user, { orderIds: ids });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ provider: 'stripe', amount: 70.98 });
      const intentId = res.json().clientSecret.split('_secret_')[0];
      const sent = stripe.standIn.requests.filter((r) => r.method === 'POST' && r.form['metadata[paymentGroup]']);
      expect(sent.at(-1)?.form).toMatchObject({ amount: '7098', currency: 'usd' });

      const paid = stripe.standIn.succeed(intentId);
      const event = stripeEvent('payment_intent.succeeded', { ...paid, object: 'payment_intent', status: 'succeeded' });
      const payload = JSON.stringify(event);
      const header = new Stripe('sk_test_unused').webhooks.generateTestHeaderString({
        payload,
        secret: WEBHOOK_SECRET,
      });
      const post = () =>
        ctx().app.inject({
          method: 'POST',
          url: '/api/payments/webhook',
          headers: { 'content-type': 'application/json', 'stripe-signature': header },
          payload,
        });
      expect((await post()).json()).toEqual({ received: true, handled: true });
      const rows = await rowsOf(ctx(), ids);
      expect(rows.every((row) => row.status === 'paid' && row.transactionId === intentId)).toBe(true);
      expect((await post()).json()).toEqual({ received: true, handled: false });
      // The client's confirmation after the webhook is a no-op 200.
      expect((await confirm(ctx(), user, intentId)).statusCode).toBe(200);
    });

    it('a group payment cancels the order’s own PaymentIntent at Stripe, so the customer cannot be charged twice', async () => {
      const user = await createUser(ctx());
      const ids = await checkoutOfThree(ctx(), user);
      const own = await intent(ctx(), user, { orderId: ids[0] });
      expect(own.statusCode, own.body).toBe(200);
      const ownId = own.json().clientSecret.split('_secret_')[0];
      const group = await intent(ctx(), user, { orderIds: ids });
      expect(group.statusCode, group.body).toBe(200);
      expect(
        stripe.standIn.requests.some((r) => r.method === 'POST' && r.path === `/v1/payment_intents/${ownId}/cancel`),
      ).toBe(true);

      // Once the group's payment is under way at Stripe, no other payment for its orders is offered.
      const groupId = group.json().clientSecret.split('_secret_')[0];
      stripe.standIn.succeed(groupId);
      const again = await intent(ctx(), user, { orderId: ids[0] });
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json().error.code).toBe('payment_under_way');
    });
  },
  stripe.overrides,
);
