import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../../../../test/support/smtp-server.ts';
import { testConfig } from '../../../../test/support/test-app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../../../test/support/test-database.ts';
import { mailOutbox } from '../../db/schema.ts';
import { createHousekeepingJob } from '../jobs/housekeeping.ts';
import { createJobRunner, type JobRunner } from '../jobs/job-runner.ts';
import { resetPasswordMail } from './account-mails.ts';
import { createMailDelivery, type MailDelivery } from './mail-delivery.ts';
import { mailDeliverySettings, purgeOldMailTask } from './mail-jobs.ts';
import { enqueueMail } from './mail-outbox.ts';
import { createMailTransport, type MailTransport } from './mail-transport.ts';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/** The wiring the app does at start-up, end to end: config → transport → delivery → periodic job. */
describe.each(testDrivers)('mail delivery as a periodic job [%s]', (driver) => {
  let database: TestDatabase;
  let smtp: TestSmtpServer;
  let transport: MailTransport | undefined;
  let delivery: MailDelivery | undefined;
  let jobs: JobRunner | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    smtp = await startSmtpServer();
  });
  afterEach(async () => {
    // The order app close uses: stop taking jobs, finish a delivery under way, then close the transport.
    await jobs?.stop();
    await delivery?.close();
    transport?.close();
    await smtp.close();
    [jobs, delivery, transport] = [undefined, undefined, undefined];
  });

  it('a mail committed with no kick is delivered by the next period', async () => {
    const config = testConfig({ SMTP_URL: smtp.url, MAIL_POLL_SECONDS: '1' });
    transport = createMailTransport(config, quiet);
    delivery = createMailDelivery({ db: database.db, transport, settings: mailDeliverySettings(config), log: quiet });
    jobs = createJobRunner({ database, log: quiet, pollingIntervalSeconds: 0.5 });
    const run = delivery.run;
    await jobs.schedule('mail-delivery', { seconds: config.MAIL_POLL_SECONDS }, async () => {
      await run();
    });
    await jobs.start();

    const content = await resetPasswordMail({ name: 'Ann', resetUrl: 'https://redline.dev/reset?t=1' });
    await database.db.transaction((tx) =>
      enqueueMail(tx, { kind: 'reset-password', to: 'ann@example.com', ...content }),
    );

    const [mail] = await smtp.waitForMessages(1, 5000);
    expect(mail?.parsed.subject).toBe('Reset your Redline Parts password');
  });

  it('housekeeping purges sent and failed mails after 30 days, never pending ones', async () => {
    const old = new Date(Date.now() - 31 * 86_400_000);
    const row = { kind: 'verify-email', recipient: 'a@example.com', subject: 's', html: 'h', text: 't' };
    await database.db.delete(mailOutbox);
    await database.db.insert(mailOutbox).values([
      { ...row, status: 'sent', createdAt: old },
      { ...row, status: 'failed', createdAt: old },
      { ...row, status: 'pending', createdAt: old },
      { ...row, status: 'sent' },
    ]);
    const housekeeping = createHousekeepingJob([purgeOldMailTask(database.db)], quiet);
    await housekeeping({ id: 'j', name: 'housekeeping', data: {}, signal: new AbortController().signal });
    const left = await database.db.select({ status: mailOutbox.status }).from(mailOutbox);
    expect(left.map((r) => r.status).sort()).toEqual(['pending', 'sent']);
  });
});
