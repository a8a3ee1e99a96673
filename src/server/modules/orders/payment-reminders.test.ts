import { afterAll, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../../../../test/support/smtp-server.ts';
import {
  createUser,
  describeEachDatabase,
  type TestContext,
  type TestUser,
} from '../../../../test/support/test-app.ts';
import { outboxMails, payOrder, placeOrder } from './fulfilment-test-helpers.ts';
import { insertPart } from './order-test-helpers.ts';

// The SMTP stand-in must exist before the apps are built: their config names it.
const smtp: TestSmtpServer = await startSmtpServer();
afterAll(async () => {
  await smtp.close();
});

const pleasePay = /please pay/;
const subjectsTo = (to: string) =>
  smtp.received.filter((mail) => mail.envelope.to.includes(to)).map((mail) => mail.parsed.subject ?? '');

async function checkout(ctx: TestContext, user: TestUser, lines: ReadonlyArray<readonly [string, number]>) {
  for (const [partId, quantity] of lines) {
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/cart/items/${partId}`,
      headers: user.headers,
      payload: { quantity },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/checkout',
    headers: user.headers,
    payload: { address: '3 Cart Road', phone: '+1 555 0123' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().orders as { _id: string; total: number }[];
}

describeEachDatabase(
  'the please-pay mail, with the job runner on and a one-second delay',
  (ctx) => {
    it('an order left unpaid gets exactly one please-pay mail over SMTP once the delay has passed', async () => {
      const buyer = await createUser(ctx(), { email: `late-payer-${ctx().driver}@example.com` });
      const part = await insertPart(ctx().database.db, {
        name: 'Clutch Cable',
        priceCents: 1250,
        availableQuantity: 9,
      });
      const order = await placeOrder(ctx(), buyer, part.id, 2);
      // The runner's payment-reminder job writes it and the delivery job sends it; no test code calls either.
      const deadline = Date.now() + 30_000;
      while (!subjectsTo(buyer.email).some((subject) => pleasePay.test(subject)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const [mail, ...more] = smtp.received.filter((m) => m.envelope.to.includes(buyer.email));
      expect(mail?.parsed.subject).toMatch(/please pay \$25\.00/);
      expect(mail?.parsed.text).toContain(`/dashboard/payment/${order._id}`);
      expect(more).toHaveLength(0);
      // More runs of the job and of the delivery add nothing.
      await ctx().app.services.jobs.runScheduled('payment-reminder');
      await ctx().app.services.paymentReminders.remindDue(new Date(Date.now() + 3_600_000));
      await ctx().app.services.jobs.mail.run();
      expect(await outboxMails(ctx(), buyer.email, 'order-placed')).toHaveLength(1);
      expect(subjectsTo(buyer.email)).toHaveLength(1);
    });
  },
  { JOBS_ENABLED: 'true', SMTP_URL: smtp.url, MAIL_POLL_SECONDS: '1', PAYMENT_REMINDER_DELAY_SECONDS: '1' },
);

describeEachDatabase(
  'the please-pay mail, run by hand at chosen times',
  (ctx) => {
    const afterDelay = () => new Date(Date.now() + (ctx().config.PAYMENT_REMINDER_DELAY_SECONDS + 60) * 1000);

    it('an order paid at once gets its receipt and no please-pay mail, however late the job runs', async () => {
      const buyer = await createUser(ctx(), { email: `quick-payer-${ctx().driver}@example.com` });
      const part = await insertPart(ctx().database.db, { name: 'Fork Seal', priceCents: 900, availableQuantity: 9 });
      const order = await placeOrder(ctx(), buyer, part.id, 1);
      expect((await payOrder(ctx(), buyer, order._id)).statusCode).toBe(200);
      expect(await ctx().app.services.paymentReminders.remindDue(afterDelay())).toBe(0);
      expect(await ctx().app.services.paymentReminders.remindDue(new Date(Date.now() + 40 * 3_600_000))).toBe(0);
      await ctx().app.services.jobs.mail.run();
      expect(await outboxMails(ctx(), buyer.email, 'order-placed')).toHaveLength(0);
      expect(subjectsTo(buyer.email)).toEqual(['Receipt: your payment of $9.00 to Redline Parts']);
    });

    it('not before the delay; then one mail per checkout for the orders still unpaid, none for a cancelled order', async () => {
      const buyer = await createUser(ctx(), { displayName: 'Cara Cart' });
      const pads = await insertPart(ctx().database.db, { name: 'Brake Pads', priceCents: 1500, availableQuantity: 40 });
      const disc = await insertPart(ctx().database.db, { name: 'Brake Disc', priceCents: 6000, availableQuantity: 40 });
      const grip = await insertPart(ctx().database.db, { name: 'Grip Tape', priceCents: 700, availableQuantity: 40 });
      const placed = await checkout(ctx(), buyer, [
        [pads.id, 2],
        [disc.id, 1],
        [grip.id, 1],
      ]);
      const ids = placed.map((order) => order._id);
      const alone = await placeOrder(ctx(), buyer, pads.id, 1);
      const dropped = await placeOrder(ctx(), buyer, disc.id, 1);
      const reminders = ctx().app.services.paymentReminders;
      expect(await reminders.remindDue()).toBe(0);

      // One of the checkout's orders is paid on its own, another order is cancelled, before the job runs.
      const paidId = ids[0] ?? '';
      expect((await payOrder(ctx(), buyer, paidId)).statusCode).toBe(200);
      const del = await ctx().app.inject({
        method: 'DELETE',
        url: `/api/myorder/${dropped._id}`,
        headers: buyer.headers,
      });
      expect(del.statusCode).toBe(200);

      expect(await reminders.remindDue(afterDelay())).toBe(2);
      expect(await reminders.remindDue(afterDelay())).toBe(0);
      const mails = await outboxMails(ctx(), buyer.email, 'order-placed');
      expect(mails).toHaveLength(2);
      const unpaidOfCheckout = ids.filter((id) => id !== paidId);
      const checkoutMail = mails.find((mail) => mail.text?.includes('/dashboard/pay?orders='));
      expect(checkoutMail?.text).toContain(`/dashboard/pay?orders=${encodeURIComponent(unpaidOfCheckout.join(','))}`);
      const unpaidTotal = placed.filter((order) => order._id !== paidId).reduce((sum, order) => sum + order.total, 0);
      expect(checkoutMail?.subject).toContain(`$${unpaidTotal.toFixed(2)}`);
      const aloneMail = mails.find((mail) => mail.text?.includes(`/dashboard/payment/${alone._id}`));
      expect(aloneMail?.subject).toContain('$15.00');
      expect(mails.some((mail) => mail.text?.includes(dropped._id))).toBe(false);
    });
  },
  { SMTP_URL: smtp.url },
);
