import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../../../../test/support/smtp-server.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../../../test/support/test-database.ts';
import { mailOutbox, users } from '../../db/schema.ts';
import { verifyEmailMail } from './account-mails.ts';
import { createMailDelivery, deliverDueMail, type MailDeliverySettings } from './mail-delivery.ts';
import { renderMail } from './mail-layout.ts';
import { claimDueMail, enqueueMail, mailOutboxStats } from './mail-outbox.ts';
import { createSmtpTransport, type MailTransport } from './mail-transport.ts';
import { checkoutPlacedMail, orderLinks } from './order-mails.ts';

const SETTINGS: MailDeliverySettings = {
  from: 'Redline Parts <no-reply@redline.dev>',
  maxAttempts: 3,
  retryBaseSeconds: 30,
  leaseSeconds: 300,
};
const T0 = new Date('2030-01-01T10:00:00Z');
const at = (seconds: number) => () => new Date(T0.getTime() + seconds * 1000);

function captureLog() {
  const lines: Array<{ level: string; obj: object; msg: string }> = [];
  const log = {
    info: (obj: object, msg: string) => lines.push({ level: 'info', obj, msg }),
    warn: (obj: object, msg: string) => lines.push({ level: 'warn', obj, msg }),
  };
  return { log, lines };
}

describe.each(testDrivers)('mail outbox and SMTP delivery [%s]', (driver) => {
  let database: TestDatabase;
  let smtp: TestSmtpServer;
  let transport: MailTransport;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    smtp = await startSmtpServer();
    transport = createSmtpTransport(smtp.url);
    // Every test starts from an empty outbox, stamped with the controlled clock.
    await database.db.delete(mailOutbox);
  });
  afterEach(async () => {
    transport?.close();
    await smtp?.close();
  });

  async function enqueueVerifyMail(to: string, name = 'Ann') {
    const content = await verifyEmailMail({ name, verifyUrl: 'https://redline.dev/verify?t=abc', validForHours: 24 });
    return database.db.transaction(async (tx) => {
      const [user] = await tx.insert(users).values({ email: to, displayName: name }).returning({ id: users.id });
      const mail = await enqueueMail(tx, { kind: 'verify-email', to, ...content });
      await tx.update(mailOutbox).set({ createdAt: T0, nextAttemptAt: T0 }).where(eq(mailOutbox.id, mail.id));
      return { userId: user?.id, mailId: mail.id };
    });
  }

  it('delivers a mail enqueued with its change: subject, to, HTML and text parts, a Message-ID from the row id', async () => {
    const { mailId } = await enqueueVerifyMail(`ann-${driver}@example.com`);
    const { log } = captureLog();

    const result = await deliverDueMail(database.db, transport, SETTINGS, { log, now: at(1) });

    expect(result).toEqual({ sent: 1, retrying: 0, failed: 0 });
    const [mail] = await smtp.waitForMessages(1);
    const parsed = mail?.parsed;
    expect(parsed?.subject).toBe('Verify your email for Redline Parts');
    expect(parsed?.to && !Array.isArray(parsed.to) ? parsed.to.text : '').toBe(`ann-${driver}@example.com`);
    expect(parsed?.from?.value).toEqual([{ name: 'Redline Parts', address: 'no-reply@redline.dev' }]);
    expect(parsed?.html).toContain('Verify your email');
    expect(parsed?.html).toContain('href="https://redline.dev/verify?t=abc"');
    expect(parsed?.text).toContain('Verify email: https://redline.dev/verify?t=abc');
    expect(parsed?.messageId).toBe(`<${mailId}@redline.dev>`);
    expect(parsed?.headers.get('auto-submitted')).toBe('auto-generated');
    expect(parsed?.date?.toISOString()).toBe(T0.toISOString());
    expect(mail?.envelope).toEqual({ from: 'no-reply@redline.dev', to: [`ann-${driver}@example.com`] });

    const [row] = await database.db.select().from(mailOutbox);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, messageId: `<${mailId}@redline.dev>`, lastError: null });
    expect(row?.deliveryResponse).toContain('queued as test-1');
    // The one-time link does not outlive its delivery.
    expect(row?.html).toBeNull();
    expect(row?.text).toBeNull();
  });

  it('a mail enqueued as its document is rendered at delivery: the same subject, HTML and text as rendered before', async () => {
    const orders = ['Brake Pads', 'Brake Disc <b>'].map((partName, index) => ({
      id: `0000000${index}-0000-4000-8000-000000000000`,
      partName,
      quantity: index + 1,
      unitPriceCents: 1500,
      totalCents: 1500 * (index + 1),
      buyerName: 'Ann Cart',
      buyerEmail: `doc-${driver}@example.com`,
      address: '3 Cart Road',
      phone: '+1 555 0123',
    }));
    const payUrl = orderLinks('https://redline.dev').payAll(orders.map((order) => order.id));
    const document = checkoutPlacedMail({ orders, buyerName: 'Ann Cart', payUrl }, 48);
    const to = `doc-${driver}@example.com`;
    const mail = await enqueueMail(database.db, { kind: 'order-placed', to, document });
    await database.db.update(mailOutbox).set({ createdAt: T0, nextAttemptAt: T0 }).where(eq(mailOutbox.id, mail.id));
    const rendered = await renderMail(document);
    // Subject and text are there at once (what the outbox's readers and the order tests see); the HTML is not.
    const [queued] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, mail.id));
    expect(queued).toMatchObject({ subject: rendered.subject, text: rendered.text, html: null });

    const result = await deliverDueMail(database.db, transport, SETTINGS, { log: captureLog().log, now: at(1) });

    expect(result).toEqual({ sent: 1, retrying: 0, failed: 0 });
    const [received] = await smtp.waitForMessages(1);
    expect(received?.parsed.subject).toBe(rendered.subject);
    expect(received?.parsed.html).toBe(rendered.html);
    expect(received?.parsed.text?.trim()).toBe(rendered.text.trim());
    expect(received?.parsed.html).toContain('Brake Disc &lt;b&gt;');
    const [row] = await database.db.select().from(mailOutbox);
    expect(row).toMatchObject({ status: 'sent', html: null, text: null, document: null });
  });

  it('retries with back-off when the server refuses, with the same Message-ID, and never sends twice', async () => {
    const { mailId } = await enqueueVerifyMail(`bo-${driver}@example.com`);
    smtp.refuseNext(1, 451);
    const { log, lines } = captureLog();

    expect(await deliverDueMail(database.db, transport, SETTINGS, { log, now: at(0) })).toEqual({
      sent: 0,
      retrying: 1,
      failed: 0,
    });
    const [afterRefusal] = await database.db.select().from(mailOutbox);
    expect(afterRefusal).toMatchObject({ status: 'pending', attempts: 1 });
    expect(afterRefusal?.nextAttemptAt.toISOString()).toBe(at(30)().toISOString());
    expect(afterRefusal?.lastError).toContain('Try again later');
    expect(lines.at(-1)?.obj).toMatchObject({ mailId, kind: 'verify-email', attempt: 1 });

    // Not before the back-off has passed.
    expect((await deliverDueMail(database.db, transport, SETTINGS, { log, now: at(29) })).sent).toBe(0);
    expect(smtp.received).toHaveLength(0);

    expect((await deliverDueMail(database.db, transport, SETTINGS, { log, now: at(31) })).sent).toBe(1);
    expect(smtp.received).toHaveLength(1);
    // After success, nothing more: an hour later the outbox has nothing due.
    expect((await deliverDueMail(database.db, transport, SETTINGS, { log, now: at(3600) })).sent).toBe(0);
    expect(smtp.received).toHaveLength(1);

    const refusedCopy = await simpleParser(smtp.refused[0] ?? Buffer.alloc(0));
    expect(refusedCopy.messageId).toBe(`<${mailId}@redline.dev>`);
    expect(smtp.received[0]?.parsed.messageId).toBe(refusedCopy.messageId);
    const [row] = await database.db.select().from(mailOutbox);
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
    // Logs name the mail, never the recipient.
    expect(JSON.stringify(lines)).not.toContain('@example.com');
  });

  it('gives up after the last attempt and shows it in the outbox stats', async () => {
    const { mailId } = await enqueueVerifyMail(`cy-${driver}@example.com`);
    smtp.refuseNext(10, 421);
    const { log } = captureLog();

    await deliverDueMail(database.db, transport, SETTINGS, { log, now: at(0) });
    await deliverDueMail(database.db, transport, SETTINGS, { log, now: at(31) });
    const last = await deliverDueMail(database.db, transport, SETTINGS, { log, now: at(31 + 61) });

    expect(last).toEqual({ sent: 0, retrying: 0, failed: 1 });
    expect(smtp.refused).toHaveLength(3);
    const stats = await mailOutboxStats(database.db);
    expect(stats.counts).toEqual({ pending: 0, sending: 0, sent: 0, failed: 1 });
    expect(stats.lastError).toMatchObject({ id: mailId, kind: 'verify-email', at: at(92)() });
    expect(stats.lastError?.message).toContain('Try again later');
    expect((await deliverDueMail(database.db, transport, SETTINGS, { log, now: at(99_999) })).failed).toBe(0);
  });

  it('gives up at once when the server refuses the recipient, and logs no address', async () => {
    const to = `nobody-${driver}@example.com`;
    await enqueueVerifyMail(to);
    smtp.refuseRecipient(to, 550);
    const { log, lines } = captureLog();

    expect(await deliverDueMail(database.db, transport, SETTINGS, { log, now: at(0) })).toEqual({
      sent: 0,
      retrying: 0,
      failed: 1,
    });
    const [row] = await database.db.select().from(mailOutbox);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(lines.map((line) => line.msg)).toEqual(['mail given up']);
    expect(JSON.stringify(lines)).not.toContain('example.com');
  });

  it('never sends a mail whose transaction rolled back', async () => {
    const content = await verifyEmailMail({ name: 'Di', verifyUrl: 'https://redline.dev/v', validForHours: 24 });
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(users).values({ email: `di-${driver}@example.com` });
        await enqueueMail(tx, { kind: 'verify-email', to: `di-${driver}@example.com`, ...content });
        throw new Error('the change failed after the mail was enqueued');
      }),
    ).rejects.toThrow('the change failed');

    const { log } = captureLog();
    expect(await deliverDueMail(database.db, transport, SETTINGS, { log })).toEqual({
      sent: 0,
      retrying: 0,
      failed: 0,
    });
    expect(await database.db.select().from(mailOutbox)).toEqual([]);
    expect(smtp.received).toHaveLength(0);
  });

  it('a sender that died after claiming leaves the mail to the next one once the lease ends, same Message-ID', async () => {
    const { mailId } = await enqueueVerifyMail(`ed-${driver}@example.com`);
    // The "crash": a claim that is never followed by a send or a record of it.
    const [claimed] = await claimDueMail(database.db, {
      now: at(0)(),
      leaseSeconds: 300,
      limit: 10,
      messageIdDomain: 'redline.dev',
    });
    expect(claimed?.messageId).toBe(`<${mailId}@redline.dev>`);
    const { log } = captureLog();

    expect((await deliverDueMail(database.db, transport, SETTINGS, { log, now: at(299) })).sent).toBe(0);
    expect((await deliverDueMail(database.db, transport, SETTINGS, { log, now: at(301) })).sent).toBe(1);
    expect(smtp.received[0]?.parsed.messageId).toBe(claimed?.messageId);
    const [row] = await database.db.select().from(mailOutbox);
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('two deliveries running at once send each mail exactly once', async () => {
    for (let i = 0; i < 12; i++) await enqueueVerifyMail(`many${i}-${driver}@example.com`);
    const { log } = captureLog();
    const settings = { ...SETTINGS, batchSize: 3 };

    const [a, b] = await Promise.all([
      deliverDueMail(database.db, transport, settings, { log, now: at(1) }),
      deliverDueMail(database.db, createSmtpTransport(smtp.url), settings, { log, now: at(1) }),
    ]);

    expect((a?.sent ?? 0) + (b?.sent ?? 0)).toBe(12);
    await smtp.waitForMessages(12);
    const ids = smtp.received.map((mail) => mail.parsed.messageId);
    expect(new Set(ids).size).toBe(12);
    expect(smtp.received).toHaveLength(12);
  });

  it('kick() delivers right after the commit; kicks during a run coalesce into one more run', async () => {
    const { log } = captureLog();
    const delivery = createMailDelivery({ db: database.db, transport, settings: SETTINGS, log, now: at(1) });
    try {
      await enqueueVerifyMail(`fay-${driver}@example.com`);
      delivery.kick();
      await enqueueVerifyMail(`gus-${driver}@example.com`);
      delivery.kick();
      delivery.kick();
      await smtp.waitForMessages(2);
    } finally {
      await delivery.close();
    }
    expect(smtp.received).toHaveLength(2);
    delivery.kick();
    expect(smtp.received).toHaveLength(2);
  });
});
