import { eq } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../../../../test/support/smtp-server.ts';
import { createUser, describeEachDatabase } from '../../../../test/support/test-app.ts';
import { jobsOverviewSchema } from '../../../shared/schemas/jobs.ts';
import { accountTokens, idempotencyKeys, mailOutbox, oauthStates, sessions } from '../../db/schema.ts';
import { payOrder, placeOrder } from '../orders/fulfilment-test-helpers.ts';
import { insertPart } from '../orders/order-test-helpers.ts';

// The SMTP server must exist before the apps are built: their config names it.
const smtp: TestSmtpServer = await startSmtpServer();
afterAll(async () => {
  await smtp.close();
});

const linkIn = (text: string | undefined, page: string) =>
  new RegExp(`/${page}#token=([A-Za-z0-9_-]+)`).exec(text ?? '')?.[1] ?? '';

describeEachDatabase(
  'background jobs wired into the app (JOBS_ENABLED=true, SMTP)',
  (ctx) => {
    it('delivers account mail over SMTP right after the commit, with working links', async () => {
      const email = `wired-${ctx().driver}@example.com`;
      const before = smtp.received.length;
      const signup = await ctx().app.inject({
        method: 'POST',
        url: '/api/signup',
        payload: { name: 'Wren', email, password: 'ride-safe-123' },
      });
      expect(signup.statusCode).toBe(202);
      const [verify] = (await smtp.waitForMessages(before + 1, 10_000)).slice(before);
      expect(verify?.envelope.to).toEqual([email]);
      expect(verify?.parsed.subject).toBe('Verify your email for Redline Parts');
      const verified = await ctx().app.inject({
        method: 'POST',
        url: '/api/email/verify',
        payload: { token: linkIn(verify?.parsed.text, 'verify-email') },
      });
      expect(verified.statusCode).toBe(200);

      await ctx().app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email } });
      const [reset] = (await smtp.waitForMessages(before + 2, 10_000)).slice(before + 1);
      expect(reset?.parsed.subject).toBe('Reset your Redline Parts password');
      const res = await ctx().app.inject({
        method: 'POST',
        url: '/api/password/reset',
        payload: { token: linkIn(reset?.parsed.text, 'reset-password'), password: 'brand-new-secret-9' },
      });
      expect(res.statusCode).toBe(200);
      const [changed] = (await smtp.waitForMessages(before + 3, 10_000)).slice(before + 2);
      expect(changed?.parsed.subject).toBe('Your Redline Parts password was changed');
      // Sent mail keeps no body in the outbox: the one-time links are gone from the database.
      // (The SMTP server has the mail a moment before the outbox records the acceptance.)
      const deadline = Date.now() + 10_000;
      let rows = await ctx().database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email));
      while (rows.some((row) => row.status !== 'sent') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        rows = await ctx().database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email));
      }
      expect(rows).toHaveLength(3);
      expect(rows.every((row) => row.status === 'sent' && row.html === null && row.text === null)).toBe(true);
    });

    it('shows admins the queues, their failures and the mail outbox', async () => {
      const admin = await createUser(ctx(), { admin: true });
      const res = await ctx().app.inject({ method: 'GET', url: '/api/admin/jobs', headers: admin.headers });
      expect(res.statusCode).toBe(200);
      const overview = jobsOverviewSchema.parse(res.json());
      expect(overview.runnerEnabled).toBe(true);
      expect(overview.queues.map((q) => q.name)).toEqual(
        expect.arrayContaining(['housekeeping', 'mail-delivery', 'order-expiry']),
      );
      expect(overview.mail.sent).toBeGreaterThanOrEqual(3);
      expect(overview.mail.failed).toBe(0);
      const customer = await createUser(ctx());
      expect(
        (await ctx().app.inject({ method: 'GET', url: '/api/admin/jobs', headers: customer.headers })).statusCode,
      ).toBe(403);
    });

    it('delivers the order mails over SMTP: receipt, the admin notice, shipped with the tracking number; no please-pay mail for an order paid at once', async () => {
      const buyer = await createUser(ctx(), { email: `buyer-${ctx().driver}@example.com` });
      const admin = await createUser(ctx(), { admin: true });
      const part = await insertPart(ctx().database.db, { name: 'Chain Guide', priceCents: 2200, availableQuantity: 9 });
      const order = await placeOrder(ctx(), buyer, part.id, 2);
      expect((await payOrder(ctx(), buyer, order._id)).statusCode).toBe(200);
      const shipped = await ctx().app.inject({
        method: 'PATCH',
        url: `/api/allorder/${order._id}/ship`,
        headers: admin.headers,
        payload: { carrier: 'FedEx', trackingNumber: '7489 2222 0001' },
      });
      expect(shipped.statusCode).toBe(200);
      const subjectsTo = (to: string) =>
        smtp.received.filter((mail) => mail.envelope.to.includes(to)).map((mail) => mail.parsed.subject ?? '');
      const deadline = Date.now() + 15_000;
      while ((subjectsTo(buyer.email).length < 2 || subjectsTo(admin.email).length < 1) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Delivery order is not promised (the shipped mail's kick may send it before the receipt's poll).
      // The please-pay mail waits PAYMENT_REMINDER_DELAY_SECONDS for an order still unpaid: this one was paid.
      await ctx().app.services.jobs.runScheduled('payment-reminder');
      await ctx().app.services.jobs.mail.run();
      expect(subjectsTo(buyer.email)).toHaveLength(2);
      expect(subjectsTo(buyer.email)).toEqual(
        expect.arrayContaining([
          'Receipt: your payment of $44.00 to Redline Parts',
          expect.stringMatching(/has shipped$/),
        ]),
      );
      const shippedMail = smtp.received.find(
        (mail) => mail.envelope.to.includes(buyer.email) && /has shipped/.test(mail.parsed.subject ?? ''),
      );
      expect(shippedMail?.parsed.text).toContain('7489 2222 0001');
      expect(subjectsTo(admin.email)).toEqual([expect.stringMatching(/^New paid order: \$44\.00/)]);
    });

    it('housekeeping drops expired sessions, abandoned Google sign-ins, spent one-time tokens and expired idempotency keys (no timer of its own)', async () => {
      const user = await createUser(ctx());
      const longAgo = new Date(Date.now() - 3 * 86_400_000);
      await ctx().database.db.update(sessions).set({ expiresAt: longAgo }).where(eq(sessions.userId, user.id));
      await ctx()
        .database.db.insert(oauthStates)
        .values({ state: 'abandoned-state', codeVerifier: 'v', nonce: 'n', expiresAt: longAgo });
      await ctx().database.db.insert(accountTokens).values({
        purpose: 'reset_password',
        userId: user.id,
        tokenHash: 'spent-hash',
        expiresAt: longAgo,
        usedAt: longAgo,
      });
      // Keys are kept IDEMPOTENCY_KEY_TTL_HOURS (24 by default): one three days old goes, one from now stays.
      const scope = `user:${user.id}`;
      await ctx()
        .database.db.insert(idempotencyKeys)
        .values([
          { scope, key: 'old-key', requestHash: 'h', statusCode: 201, createdAt: longAgo },
          { scope, key: 'new-key', requestHash: 'h', statusCode: 201 },
        ]);
      await ctx().app.services.jobs.runHousekeeping();
      const keys = await ctx().database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.scope, scope));
      expect(keys.map((k) => k.key)).toEqual(['new-key']);
      expect(await ctx().database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
      expect(
        await ctx().database.db.select().from(oauthStates).where(eq(oauthStates.state, 'abandoned-state')),
      ).toHaveLength(0);
      expect(
        await ctx().database.db.select().from(accountTokens).where(eq(accountTokens.tokenHash, 'spent-hash')),
      ).toHaveLength(0);
    });
  },
  { JOBS_ENABLED: 'true', SMTP_URL: smtp.url, MAIL_POLL_SECONDS: '1' },
);

describeEachDatabase(
  'mail sent on the commit, not on a poll (MAIL_POLL_SECONDS=3600)',
  (ctx) => {
    it('a payment’s receipt goes out right after the paying transaction commits', async () => {
      const buyer = await createUser(ctx(), { email: `kicked-${ctx().driver}@example.com` });
      const part = await insertPart(ctx().database.db, { name: 'Brake Lever', priceCents: 1500, availableQuantity: 9 });
      const order = await placeOrder(ctx(), buyer, part.id, 2);
      // The period's first run (proposed at start, picked up within the runner's 2 s polling) is out of the way
      // first; after it, only a kick can send anything for an hour.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const before = smtp.received.length;
      expect((await payOrder(ctx(), buyer, order._id)).statusCode).toBe(200);
      const arrived = (await smtp.waitForMessages(before + 1, 10_000)).slice(before);
      expect(arrived.map((mail) => mail.parsed.subject)).toContain('Receipt: your payment of $30.00 to Redline Parts');
    });
  },
  { JOBS_ENABLED: 'true', SMTP_URL: smtp.url, MAIL_POLL_SECONDS: '3600' },
);

describeEachDatabase(
  'an instance with JOBS_ENABLED=false (the test default)',
  (ctx) => {
    it('starts no runner and sends nothing, but writes the outbox and still shows the panel', async () => {
      const before = smtp.received.length;
      const email = `quiet-${ctx().driver}@example.com`;
      await ctx().app.inject({
        method: 'POST',
        url: '/api/signup',
        payload: { name: 'Q', email, password: 'ride-safe-123' },
      });
      const [row] = await ctx().database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email));
      expect(row?.status).toBe('pending');
      const admin = await createUser(ctx(), { admin: true });
      const res = await ctx().app.inject({ method: 'GET', url: '/api/admin/jobs', headers: admin.headers });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ runnerEnabled: false, mail: { pending: 1, sent: 0 } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.received.length).toBe(before);
    });
  },
  { SMTP_URL: smtp.url },
);
