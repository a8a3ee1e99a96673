import { eq } from 'drizzle-orm';
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
import { paymentIntents, refunds } from '../../db/schema.ts';
import { confirmTestCard, outboxMails, payOrder, placeOrder } from '../orders/fulfilment-test-helpers.ts';
import { insertPart, orderRow, stockOf } from '../orders/order-test-helpers.ts';

const refund = (ctx: TestContext, user: TestUser | undefined, orderId: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/allorder/${orderId}/refund`,
    headers: { ...(user?.headers ?? {}), ...headers },
  });

describeEachDatabase('refunds through the built-in test gateway', (ctx) => {
  it('lets an admin refund a paid, unshipped order: refunded, stock back, refund recorded, buyer mailed', async () => {
    const ann = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const part = await insertPart(ctx().database.db, { priceCents: 3000, availableQuantity: 20 });
    const order = await placeOrder(ctx(), ann, part.id, 4);
    expect((await payOrder(ctx(), ann, order._id)).statusCode).toBe(200);
    expect(await stockOf(ctx().database.db, part.id)).toBe(16);

    const before = await databaseChecksum(ctx().database.db);
    expect((await refund(ctx(), undefined, order._id)).statusCode).toBe(401);
    expect((await refund(ctx(), ann, order._id)).statusCode).toBe(403);
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);

    const res = await refund(ctx(), admin, order._id, { 'idempotency-key': 'refund-once-1' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ _id: order._id, status: 'refunded', paid: true });
    expect(await stockOf(ctx().database.db, part.id)).toBe(20);
    const rows = await ctx().database.db.select().from(refunds).where(eq(refunds.orderId, order._id));
    expect(rows).toMatchObject([{ status: 'succeeded', amountCents: 12000, provider: 'test', source: 'admin' }]);
    expect(rows[0]?.providerRefundId).toMatch(/^re_/);
    const [mail] = await outboxMails(ctx(), ann.email, 'order-refunded');
    expect(mail?.text).toContain('$120.00');

    // Again (a retry, the same key or none): answered unchanged, refunded once, stock unchanged.
    for (const key of ['refund-once-1', undefined]) {
      const again = await refund(ctx(), admin, order._id, key ? { 'idempotency-key': key } : {});
      expect(again.statusCode).toBe(200);
      expect(again.json().status).toBe('refunded');
    }
    expect(await ctx().database.db.select().from(refunds).where(eq(refunds.orderId, order._id))).toHaveLength(1);
    expect(await stockOf(ctx().database.db, part.id)).toBe(20);
    expect(await outboxMails(ctx(), ann.email, 'order-refunded')).toHaveLength(1);

    // A refunded order is neither shipped nor deletable, and its page shows the refund.
    const ship = await ctx().app.inject({
      method: 'PATCH',
      url: `/api/allorder/${order._id}/ship`,
      headers: admin.headers,
      payload: { carrier: 'UPS', trackingNumber: '1Z1' },
    });
    expect(ship.statusCode).toBe(409);
    const detail = await ctx().app.inject({
      method: 'GET',
      url: `/api/orders/${order._id}/detail`,
      headers: ann.headers,
    });
    expect(detail.json().timeline.map((step: { event: string }) => step.event)).toEqual(['placed', 'paid', 'refunded']);
  });

  it('refuses to refund unpaid, cancelled and shipped orders (409), changing nothing', async () => {
    const ann = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const part = await insertPart(ctx().database.db, { availableQuantity: 30 });
    const unpaid = await placeOrder(ctx(), ann, part.id, 1);
    const cancelled = await placeOrder(ctx(), ann, part.id, 1);
    await ctx().app.inject({ method: 'DELETE', url: `/api/myorder/${cancelled._id}`, headers: ann.headers });
    const shipped = await placeOrder(ctx(), ann, part.id, 1);
    expect((await payOrder(ctx(), ann, shipped._id)).statusCode).toBe(200);
    await ctx().app.inject({
      method: 'PATCH',
      url: `/api/allorder/${shipped._id}/ship`,
      headers: admin.headers,
      payload: { carrier: 'UPS', trackingNumber: '1Z2' },
    });
    const before = await databaseChecksum(ctx().database.db);
    for (const id of [unpaid._id, cancelled._id, shipped._id]) {
      const res = await refund(ctx(), admin, id);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('order_not_refundable');
    }
    expect((await refund(ctx(), admin, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await refund(ctx(), admin, 'not-an-id')).statusCode).toBe(400);
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);
  });

  it('refunds one order of a group payment for its own amount only', async () => {
    const ann = await createUser(ctx());
    const admin = await createUser(ctx(), { admin: true });
    const part = await insertPart(ctx().database.db, { priceCents: 1000, availableQuantity: 50 });
    const first = await placeOrder(ctx(), ann, part.id, 2);
    const second = await placeOrder(ctx(), ann, part.id, 3);
    const intent = await ctx().app.inject({
      method: 'POST',
      url: '/api/create-payment-intent',
      headers: ann.headers,
      payload: { orderIds: [first._id, second._id] },
    });
    expect(intent.statusCode, intent.body).toBe(200);
    expect(intent.json().amount).toBe(50);
    const confirm = await confirmTestCard(ctx(), ann, intent.json().clientSecret);
    expect(confirm.statusCode, confirm.body).toBe(200);
    const paid = await ctx().app.inject({
      method: 'POST',
      url: '/api/payments/confirm',
      headers: ann.headers,
      payload: { transactionId: confirm.json().transactionId },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    // One receipt for the one payment of two orders.
    expect(await outboxMails(ctx(), ann.email, 'payment-receipt')).toHaveLength(1);

    const res = await refund(ctx(), admin, second._id);
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await ctx().database.db.select().from(refunds).where(eq(refunds.orderId, second._id));
    expect(row).toMatchObject({ amountCents: 3000, paymentId: confirm.json().transactionId });
    expect(await orderRow(ctx().database.db, first._id)).toMatchObject({ status: 'paid' });
    expect(await stockOf(ctx().database.db, part.id)).toBe(48);
    // The other order of the payment can be refunded too; never more than was paid in all.
    expect((await refund(ctx(), admin, first._id)).json().status).toBe('refunded');
    expect(await stockOf(ctx().database.db, part.id)).toBe(50);
  });
});

const WEBHOOK_SECRET = 'whsec_test_refunds_secret_0123456789';
const stripe = stripeStandInForFile({ webhookSecret: WEBHOOK_SECRET, publishableKey: 'pk_test_refunds_0123456789' });

const signer = new Stripe('sk_test_unused');

function signedStripeEvent(type: string, object: object, id?: string) {
  const payload = JSON.stringify(stripeEvent(type, object, id));
  return { payload, header: signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) };
}

async function postWebhook(ctx: TestContext, event: { payload: string; header: string }) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': event.header },
    payload: event.payload,
  });
}

/** A paid order through Stripe: the intent at the stand-in, the customer's card accepted there, then the PATCH. */
async function paidWithStripe(ctx: TestContext, user: TestUser, partId: string, quantity: number) {
  const order = await placeOrder(ctx, user, partId, quantity);
  const intent = await ctx.app.inject({
    method: 'POST',
    url: '/api/create-payment-intent',
    headers: user.headers,
    payload: { orderId: order._id },
  });
  expect(intent.statusCode, intent.body).toBe(200);
  const intentId = intent.json().clientSecret.split('_secret_')[0] as string;
  stripe.standIn.succeed(intentId);
  const paid = await ctx.app.inject({
    method: 'PATCH',
    url: `/api/myorder/${order._id}`,
    headers: user.headers,
    payload: { transactionId: intentId },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  return { order, intentId };
}

describeEachDatabase(
  'refunds and disputes with Stripe (SDK against a local stand-in)',
  (ctx) => {
    it('refunds through the Refunds API with the order’s amount, its id and an idempotency key', async () => {
      const ann = await createUser(ctx());
      const admin = await createUser(ctx(), { admin: true });
      const part = await insertPart(ctx().database.db, { priceCents: 2500, availableQuantity: 10 });
      const { order, intentId } = await paidWithStripe(ctx(), ann, part.id, 2);
      const res = await refund(ctx(), admin, order._id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().status).toBe('refunded');
      // One stand-in serves both databases' suites: this order's refund requests only.
      const asked = stripe.standIn.requests.filter(
        (request) => request.path === '/v1/refunds' && request.form.payment_intent === intentId,
      );
      expect(asked).toHaveLength(1);
      expect(asked[0]?.form).toMatchObject({
        payment_intent: intentId,
        amount: '5000',
        'metadata[orderId]': order._id,
      });
      expect(asked[0]?.headers['idempotency-key']).toMatch(/^refund-/);
      const [row] = await ctx().database.db.select().from(refunds).where(eq(refunds.orderId, order._id));
      const refundAtStripe = [...stripe.standIn.refunds.values()].find((made) => made.payment_intent === intentId);
      expect(row?.providerRefundId).toBe(refundAtStripe?.id);
      expect(await stockOf(ctx().database.db, part.id)).toBe(10);

      // Stripe then tells us of the refund we made: nothing changes.
      const echo = await postWebhook(
        ctx(),
        signedStripeEvent('charge.refunded', {
          id: 'ch_echo',
          object: 'charge',
          amount: 5000,
          amount_refunded: 5000,
          payment_intent: intentId,
          refunds: { object: 'list', data: [refundAtStripe] },
        }),
      );
      expect(echo.json()).toEqual({ received: true, handled: false });
      expect(await stockOf(ctx().database.db, part.id)).toBe(10);
    });

    it('cancelling an unpaid order cancels its PaymentIntent at Stripe first, so no card can be charged after', async () => {
      const ann = await createUser(ctx());
      const part = await insertPart(ctx().database.db, { priceCents: 2500, availableQuantity: 10 });
      const order = await placeOrder(ctx(), ann, part.id, 1);
      const intent = await ctx().app.inject({
        method: 'POST',
        url: '/api/create-payment-intent',
        headers: ann.headers,
        payload: { orderId: order._id },
      });
      const intentId = intent.json().clientSecret.split('_secret_')[0] as string;
      const del = await ctx().app.inject({ method: 'DELETE', url: `/api/myorder/${order._id}`, headers: ann.headers });
      expect(del.statusCode).toBe(200);
      expect(stripe.standIn.intents.get(intentId)?.status).toBe('canceled');
      expect(() => stripe.standIn.succeed(intentId)).toThrow(/canceled/);
      const [kept] = await ctx().database.db.select().from(paymentIntents).where(eq(paymentIntents.id, intentId));
      expect(kept?.status).toBe('canceled');

      // Too late: the card went through at Stripe before the Delete: the order stays.
      const other = await placeOrder(ctx(), ann, part.id, 1);
      const second = await ctx().app.inject({
        method: 'POST',
        url: '/api/create-payment-intent',
        headers: ann.headers,
        payload: { orderId: other._id },
      });
      stripe.standIn.succeed(second.json().clientSecret.split('_secret_')[0] as string);
      const refused = await ctx().app.inject({
        method: 'DELETE',
        url: `/api/myorder/${other._id}`,
        headers: ann.headers,
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('payment_under_way');
      expect(await orderRow(ctx().database.db, other._id)).toMatchObject({ status: 'unpaid' });
    });

    it('a refund Stripe refuses leaves the order paid and its refund marked failed', async () => {
      const ann = await createUser(ctx());
      const admin = await createUser(ctx(), { admin: true });
      const part = await insertPart(ctx().database.db, { priceCents: 2500, availableQuantity: 10 });
      const { order, intentId } = await paidWithStripe(ctx(), ann, part.id, 1);
      // Refunded in full in Stripe's dashboard meanwhile (no webhook yet): Stripe refuses ours.
      const intent = stripe.standIn.intents.get(intentId);
      stripe.standIn.refunds.set('re_dashboard_first', {
        id: 're_dashboard_first',
        object: 'refund',
        amount: intent?.amount ?? 0,
        currency: 'usd',
        payment_intent: intentId,
        charge: 'ch_x',
        status: 'succeeded',
        metadata: {},
        created: 0,
      });
      const res = await refund(ctx(), admin, order._id);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('refund_refused');
      expect(await orderRow(ctx().database.db, order._id)).toMatchObject({ status: 'paid' });
      const rows = await ctx().database.db.select().from(refunds).where(eq(refunds.orderId, order._id));
      expect(rows.map((row) => row.status)).toEqual(['failed']);
      expect(await stockOf(ctx().database.db, part.id)).toBe(9);
    });

    it('charge.refunded from Stripe’s dashboard refunds the orders it covers, once; disputes mark the order', async () => {
      const ann = await createUser(ctx());
      const part = await insertPart(ctx().database.db, { priceCents: 1500, availableQuantity: 10 });
      const { order, intentId } = await paidWithStripe(ctx(), ann, part.id, 2);
      expect(await stockOf(ctx().database.db, part.id)).toBe(8);
      const event = signedStripeEvent('charge.refunded', {
        id: 'ch_dash',
        object: 'charge',
        amount: 3000,
        amount_refunded: 3000,
        payment_intent: intentId,
        refunds: { object: 'list', data: [{ id: 're_dash_1', object: 'refund', amount: 3000 }] },
      });
      const first = await postWebhook(ctx(), event);
      expect(first.json()).toEqual({ received: true, handled: true });
      expect(await orderRow(ctx().database.db, order._id)).toMatchObject({ status: 'refunded' });
      expect(await stockOf(ctx().database.db, part.id)).toBe(10);
      expect(await outboxMails(ctx(), ann.email, 'order-refunded')).toHaveLength(1);
      // A repeated delivery changes nothing.
      expect((await postWebhook(ctx(), event)).json()).toEqual({ received: true, handled: false });
      expect(await stockOf(ctx().database.db, part.id)).toBe(10);

      const disputed = await paidWithStripe(ctx(), ann, part.id, 1);
      const dispute = signedStripeEvent('charge.dispute.created', {
        id: 'dp_1',
        object: 'dispute',
        amount: 1500,
        charge: 'ch_disputed',
        payment_intent: disputed.intentId,
        reason: 'fraudulent',
        status: 'needs_response',
      });
      expect((await postWebhook(ctx(), dispute)).json()).toEqual({ received: true, handled: true });
      const detail = await ctx().app.inject({
        method: 'GET',
        url: `/api/orders/${disputed.order._id}/detail`,
        headers: ann.headers,
      });
      expect(detail.json().disputedAt).not.toBeNull();
      expect(detail.json().timeline.map((step: { event: string }) => step.event)).toContain('disputed');
      expect((await postWebhook(ctx(), dispute)).json()).toEqual({ received: true, handled: false });
    });
  },
  stripe.overrides,
);
