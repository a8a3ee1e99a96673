import Stripe from 'stripe';
import { expect, it } from 'vitest';
import { stripeEvent } from '../../../../test/support/stripe-stand-in.ts';
import { stripeStandInForFile } from '../../../../test/support/stripe-stand-in-suite.ts';
import { databaseChecksum } from '../../../../test/support/table-checksum.ts';
import {
  createUser,
  describeEachDatabase,
  type TestContext,
  type TestUser,
} from '../../../../test/support/test-app.ts';
import { orderRow } from '../orders/order-test-helpers.ts';
import { intentFor, orderFor } from './payment-test-helpers.ts';

const WEBHOOK_SECRET = 'whsec_test_standin_secret_0123456789';
const PUBLISHABLE_KEY = 'pk_test_standin_0123456789';

const stripe = stripeStandInForFile({ webhookSecret: WEBHOOK_SECRET, publishableKey: PUBLISHABLE_KEY });

const signer = new Stripe('sk_test_unused');

function signedEvent(event: object, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  const header = signer.webhooks.generateTestHeaderString({ payload, secret });
  return { payload, header };
}

function succeededEvent(
  intent: { id: string; amount: number; currency: string; metadata: Record<string, string> },
  id?: string,
) {
  return stripeEvent(
    'payment_intent.succeeded',
    { ...intent, object: 'payment_intent', status: 'succeeded', amount_received: intent.amount },
    id,
  );
}

async function postWebhook(ctx: TestContext, payload: string, header?: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    // Exactly what Stripe sends.
    headers: { 'content-type': 'application/json; charset=utf-8', ...(header ? { 'stripe-signature': header } : {}) },
    payload,
  });
}

/** Stripe's tests pay $84.00 (4200 cents × 2) and always send a client `price`, which must be ignored. */
const stripeOrderFor = (ctx: TestContext, user: TestUser) => orderFor(ctx, user, { priceCents: 4200, quantity: 2 });
const stripeIntentFor = (ctx: TestContext, user: TestUser, orderId: string) =>
  intentFor(ctx, user, orderId, { price: 1 });

function intentIdOf(clientSecret: string): string {
  return clientSecret.split('_secret_')[0] ?? '';
}

describeEachDatabase(
  'payments with Stripe (SDK against a local stand-in of its API)',
  (ctx) => {
    it('tells the web to use Stripe with the publishable key', async () => {
      const res = await ctx().app.inject({ method: 'GET', url: '/api/payments/config' });
      expect(res.json()).toEqual({ provider: 'stripe', publishableKey: PUBLISHABLE_KEY });
    });

    it('creates a PaymentIntent through the SDK for the order’s amount, once per order', async () => {
      const ann = await createUser(ctx());
      const order = await stripeOrderFor(ctx(), ann);
      const first = await stripeIntentFor(ctx(), ann, order._id);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ provider: 'stripe', publishableKey: PUBLISHABLE_KEY, amount: 84 });
      const sent = stripe.standIn.requests.filter(
        (r) => r.method === 'POST' && r.form['metadata[orderId]'] === order._id,
      );
      expect(sent).toHaveLength(1);
      expect(sent[0]?.form).toMatchObject({ amount: '8400', currency: 'usd', 'metadata[orderId]': order._id });
      expect(sent[0]?.headers['idempotency-key']).toBe(`order-${order._id}-8400`);
      expect(sent[0]?.headers.authorization).toBe(`Bearer ${stripe.standIn.secretKey}`);

      const again = await stripeIntentFor(ctx(), ann, order._id);
      expect(again.json().clientSecret).toBe(first.json().clientSecret);
      expect(stripe.standIn.requests.filter((r) => r.form['metadata[orderId]'] === order._id)).toHaveLength(1);
    });

    it('marks the order paid only when Stripe says the intent succeeded for this order and amount', async () => {
      const ann = await createUser(ctx());
      const bob = await createUser(ctx());
      const order = await stripeOrderFor(ctx(), ann);
      const { clientSecret } = (await stripeIntentFor(ctx(), ann, order._id)).json();
      const intentId = intentIdOf(clientSecret);
      const patch = (user: TestUser, transactionId: string) =>
        ctx().app.inject({
          method: 'PATCH',
          url: `/api/myorder/${order._id}`,
          headers: user.headers,
          payload: { transactionId },
        });

      const before = await databaseChecksum(ctx().database.db);
      const early = await patch(ann, intentId);
      expect(early.statusCode).toBe(422);
      expect(early.json().error.code).toBe('payment_not_succeeded');
      expect((await patch(ann, 'pi_doesnotexist000000')).statusCode).toBe(422);
      expect((await patch(ann, 'made-up')).statusCode).toBe(422);

      // A succeeded intent for the same order id but a smaller amount (made outside the shop) does not pay it.
      const cheap = stripe.standIn.createIntent({ amount: 50, metadata: { orderId: order._id } });
      stripe.standIn.succeed(cheap.id);
      const mismatch = await patch(ann, cheap.id);
      expect(mismatch.statusCode).toBe(422);
      expect(mismatch.json().error.code).toBe('payment_amount_mismatch');
      // Someone else's succeeded payment does not pay this order either.
      const foreign = stripe.standIn.createIntent({
        amount: 8400,
        metadata: { orderId: '00000000-0000-4000-8000-000000000000' },
      });
      stripe.standIn.succeed(foreign.id);
      expect((await patch(ann, foreign.id)).json().error.code).toBe('payment_not_found');
      expect((await patch(bob, intentId)).statusCode).toBe(404);
      expect(await databaseChecksum(ctx().database.db)).toEqual(before);

      stripe.standIn.succeed(intentId);
      const ok = await patch(ann, intentId);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ paid: true, status: 'paid', transactionId: intentId });
      expect((await patch(ann, intentId)).statusCode).toBe(200);
      expect((await stripeIntentFor(ctx(), ann, order._id)).statusCode).toBe(409);
    });

    it('marks the order paid from a signed payment_intent.succeeded webhook, once', async () => {
      const ann = await createUser(ctx());
      const order = await stripeOrderFor(ctx(), ann);
      const { clientSecret } = (await stripeIntentFor(ctx(), ann, order._id)).json();
      const intent = stripe.standIn.succeed(intentIdOf(clientSecret));
      const { payload, header } = signedEvent(succeededEvent(intent));

      const res = await postWebhook(ctx(), payload, header);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ received: true, handled: true });
      expect(await orderRow(ctx().database.db, order._id)).toMatchObject({
        paid: true,
        status: 'paid',
        transactionId: intent.id,
      });

      const before = await databaseChecksum(ctx().database.db);
      const replay = await postWebhook(ctx(), payload, header);
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual({ received: true, handled: false });
      expect(await databaseChecksum(ctx().database.db)).toEqual(before);

      // The client's PATCH after the webhook is a no-op 200.
      const patch = await ctx().app.inject({
        method: 'PATCH',
        url: `/api/myorder/${order._id}`,
        headers: ann.headers,
        payload: { transactionId: intent.id },
      });
      expect(patch.statusCode).toBe(200);
      expect(await databaseChecksum(ctx().database.db)).toEqual(before);
    });

    it('refuses to delete an order whose Stripe payment went through before we heard of it', async () => {
      const ann = await createUser(ctx());
      const order = await stripeOrderFor(ctx(), ann);
      const { clientSecret } = (await stripeIntentFor(ctx(), ann, order._id)).json();
      // Stripe has taken the money; neither the confirmation nor the webhook has reached us yet.
      stripe.standIn.succeed(intentIdOf(clientSecret));
      const before = await databaseChecksum(ctx().database.db);
      const res = await ctx().app.inject({ method: 'DELETE', url: `/api/myorder/${order._id}`, headers: ann.headers });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('payment_under_way');
      expect(await databaseChecksum(ctx().database.db)).toEqual(before);
    });

    it('still deletes an unpaid order whose Stripe payment never went through', async () => {
      const ann = await createUser(ctx());
      const order = await stripeOrderFor(ctx(), ann);
      expect((await stripeIntentFor(ctx(), ann, order._id)).statusCode).toBe(200);
      const res = await ctx().app.inject({ method: 'DELETE', url: `/api/myorder/${order._id}`, headers: ann.headers });
      expect(res.statusCode).toBe(200);
    });

    it('rejects bad, missing, stale or foreign signatures and changes nothing', async () => {
      const ann = await createUser(ctx());
      const order = await stripeOrderFor(ctx(), ann);
      const { clientSecret } = (await stripeIntentFor(ctx(), ann, order._id)).json();
      const intent = stripe.standIn.succeed(intentIdOf(clientSecret));
      const event = succeededEvent(intent);
      const { payload, header } = signedEvent(event);
      const before = await databaseChecksum(ctx().database.db);

      const wrongSecret = signedEvent(event, 'whsec_someone_else');
      const stale = signer.webhooks.generateTestHeaderString({
        payload,
        secret: WEBHOOK_SECRET,
        timestamp: Math.floor(Date.now() / 1000) - 3600,
      });
      const tampered = payload.replace(`"amount":${intent.amount}`, '"amount":1');
      for (const [body, sig] of [
        [payload, undefined],
        [payload, 't=1,v1=deadbeef'],
        [payload, wrongSecret.header],
        [payload, stale],
        [tampered, header],
        ['not json', header],
      ] as const) {
        const res = await postWebhook(ctx(), body, sig);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('invalid_data');
      }
      expect(await databaseChecksum(ctx().database.db)).toEqual(before);
    });

    it('ignores other events and succeeded events whose amount does not match the order', async () => {
      const ann = await createUser(ctx());
      const order = await stripeOrderFor(ctx(), ann);
      const other = signedEvent({
        ...succeededEvent({ id: 'pi_x', amount: 1, currency: 'usd', metadata: {} }),
        type: 'charge.refunded',
      });
      const res = await postWebhook(ctx(), other.payload, other.header);
      expect(res.json()).toEqual({ received: true, handled: false });

      const wrong = stripe.standIn.createIntent({ amount: 100, metadata: { orderId: order._id } });
      stripe.standIn.succeed(wrong.id);
      const { payload, header } = signedEvent(succeededEvent(wrong));
      const mismatch = await postWebhook(ctx(), payload, header);
      expect(mismatch.json()).toEqual({ received: true, handled: false });
      expect((await orderRow(ctx().database.db, order._id))?.paid).toBe(false);
    });

    it('keeps the shop’s JSON parser on every other route', async () => {
      const ann = await createUser(ctx());
      const res = await ctx().app.inject({
        method: 'POST',
        url: '/api/create-payment-intent',
        headers: { ...ann.headers, 'content-type': 'application/json' },
        payload: '{"orderId": ',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('invalid_data');
    });

    it('has no test gateway when Stripe is the provider', async () => {
      const ann = await createUser(ctx());
      const res = await ctx().app.inject({
        method: 'POST',
        url: '/api/payments/test-gateway/confirm',
        headers: ann.headers,
        payload: {
          clientSecret: 'pi_x_secret_y',
          card: { number: '4242424242424242', expMonth: 1, expYear: 2099, cvc: '123' },
        },
      });
      expect(res.statusCode).toBe(404);
    });
  },
  stripe.overrides,
);
