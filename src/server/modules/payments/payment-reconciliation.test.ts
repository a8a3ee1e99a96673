import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { stripeStandInForFile } from '../../../../test/support/stripe-stand-in-suite.ts';
import {
  createUser,
  describeEachDatabase,
  type TestContext,
  type TestUser,
} from '../../../../test/support/test-app.ts';
import { mailOutbox, paymentIntents } from '../../db/schema.ts';
import { confirmTestCard } from '../orders/fulfilment-test-helpers.ts';
import { orderRow } from '../orders/order-test-helpers.ts';
import { intentFor, orderFor } from './payment-test-helpers.ts';

/*
 * A charge can go through at the provider while the confirmation that marks its orders paid never runs: the server
 * died between the two (or the buyer's tab did). The reconciliation job asks the provider about payments still open
 * a minute after their last change and marks the orders paid through the buyer's own confirmation path.
 */

const intentIdOf = (clientSecret: string) => clientSecret.split('_secret_')[0] ?? '';

/** As if the intent had last changed `seconds` ago (the job leaves a payment a minute to be confirmed by itself). */
async function age(ctx: TestContext, intentId: string, seconds: number) {
  await ctx.database.db
    .update(paymentIntents)
    .set({
      createdAt: sql`${paymentIntents.createdAt} - make_interval(secs => ${seconds})`,
      updatedAt: sql`${paymentIntents.updatedAt} - make_interval(secs => ${seconds})`,
    })
    .where(eq(paymentIntents.id, intentId));
}

async function receiptsFor(ctx: TestContext, email: string) {
  const rows = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email));
  return rows.filter((row) => row.kind === 'payment-receipt').length;
}

describeEachDatabase('payment reconciliation with the test gateway', (ctx) => {
  it('marks paid, through the scheduled job, an order whose charge succeeded but was never confirmed; once', async () => {
    const ann = await createUser(ctx());
    const order = await orderFor(ctx(), ann);
    const { clientSecret } = (await intentFor(ctx(), ann, order._id)).json();
    // The card step only: the charge is made, the confirmation (PATCH /api/myorder) never follows.
    expect((await confirmTestCard(ctx(), ann, clientSecret, '4242424242424242')).statusCode).toBe(200);
    // The crash: no confirmation ran. Within the grace minute the job leaves it alone.
    await ctx().app.services.jobs.runScheduled('payment-reconciliation');
    expect((await orderRow(ctx().database.db, order._id))?.paid).toBe(false);

    await age(ctx(), intentIdOf(clientSecret), 120);
    await ctx().app.services.jobs.runScheduled('payment-reconciliation');
    const paid = await orderRow(ctx().database.db, order._id);
    expect(paid).toMatchObject({ paid: true, status: 'paid', transactionId: intentIdOf(clientSecret) });
    expect(await receiptsFor(ctx(), ann.email)).toBe(1);

    // Again later, and the buyer's own confirmation arriving late: nothing changes, no second receipt.
    await ctx().app.services.payments.reconcilePending(new Date(Date.now() + 3_600_000));
    const late = await ctx().app.inject({
      method: 'PATCH',
      url: `/api/myorder/${order._id}`,
      headers: ann.headers,
      payload: { transactionId: intentIdOf(clientSecret) },
    });
    expect(late.statusCode).toBe(200);
    expect(await receiptsFor(ctx(), ann.email)).toBe(1);
  });

  it('leaves unpaid an order whose card was declined', async () => {
    const ann = await createUser(ctx());
    const order = await orderFor(ctx(), ann);
    const { clientSecret } = (await intentFor(ctx(), ann, order._id)).json();
    expect((await confirmTestCard(ctx(), ann, clientSecret, '4000000000000002')).statusCode).toBe(402);
    await ctx().app.services.payments.reconcilePending(new Date(Date.now() + 120_000));
    expect(await orderRow(ctx().database.db, order._id)).toMatchObject({ paid: false, status: 'unpaid' });
  });
});

const WEBHOOK_SECRET = 'whsec_test_standin_secret_0123456789';
const stripe = stripeStandInForFile({ webhookSecret: WEBHOOK_SECRET, publishableKey: 'pk_test_standin_0123456789' });

describeEachDatabase(
  'payment reconciliation with Stripe (SDK against the local stand-in)',
  (ctx) => {
    const stripeOrder = async (user: TestUser) => {
      const order = await orderFor(ctx(), user, { priceCents: 4200, quantity: 2 });
      const { clientSecret } = (await intentFor(ctx(), user, order._id)).json();
      return { order, intentId: intentIdOf(clientSecret) };
    };

    it('marks paid an order whose PaymentIntent succeeded at Stripe with neither confirmation nor webhook', async () => {
      const ann = await createUser(ctx());
      const { order, intentId } = await stripeOrder(ann);
      // The buyer finished the card form at Stripe; then our server died, and the webhook never came.
      stripe.standIn.succeed(intentId);
      const asked = () =>
        stripe.standIn.requests.filter((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${intentId}`);
      await ctx().app.services.payments.reconcilePending(new Date(Date.now() + 30_000));
      expect(asked()).toHaveLength(0);
      expect((await orderRow(ctx().database.db, order._id))?.paid).toBe(false);

      await ctx().app.services.payments.reconcilePending(new Date(Date.now() + 120_000));
      expect(asked()).toHaveLength(1);
      expect(await orderRow(ctx().database.db, order._id)).toMatchObject({ paid: true, transactionId: intentId });
      const [row] = await ctx().database.db.select().from(paymentIntents).where(eq(paymentIntents.id, intentId));
      expect(row?.status).toBe('succeeded');
      expect(await receiptsFor(ctx(), ann.email)).toBe(1);
    });

    it('does not mark paid what Stripe says is not paid: cancelled there is cancelled here, open stays open', async () => {
      const ann = await createUser(ctx());
      const cancelled = await stripeOrder(ann);
      const open = await stripeOrder(ann);
      const standInIntent = stripe.standIn.intents.get(cancelled.intentId);
      if (!standInIntent) throw new Error('no intent at the stand-in');
      standInIntent.status = 'canceled';

      const now = Date.now() + 120_000;
      await ctx().app.services.payments.reconcilePending(new Date(now));
      for (const { order } of [cancelled, open]) {
        expect(await orderRow(ctx().database.db, order._id)).toMatchObject({ paid: false, status: 'unpaid' });
      }
      const statusOf = async (id: string) =>
        (await ctx().database.db.select().from(paymentIntents).where(eq(paymentIntents.id, id)))[0]?.status;
      expect(await statusOf(cancelled.intentId)).toBe('canceled');
      expect(await statusOf(open.intentId)).toBe('requires_payment_method');

      // An open one is asked again later, not at every run: after as long again as it was old when asked.
      const asked = () =>
        stripe.standIn.requests.filter((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${open.intentId}`)
          .length;
      expect(asked()).toBe(1);
      await ctx().app.services.payments.reconcilePending(new Date(now + 61_000));
      expect(asked()).toBe(1);
      // Paid at Stripe meanwhile: the next question finds it.
      stripe.standIn.succeed(open.intentId);
      await ctx().app.services.payments.reconcilePending(new Date(now + 10 * 60_000));
      expect(asked()).toBe(2);
      expect(await orderRow(ctx().database.db, open.order._id)).toMatchObject({ paid: true });
    });
  },
  stripe.overrides,
);
