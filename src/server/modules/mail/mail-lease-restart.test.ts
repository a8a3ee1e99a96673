import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../../../../test/support/smtp-server.ts';
import { TEST_SESSION_SECRET, testConfig } from '../../../../test/support/test-app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../../../test/support/test-database.ts';
import { buildApp } from '../../app.ts';
import { mailOutbox } from '../../db/schema.ts';
import { claimDueMail, enqueueMail } from './mail-outbox.ts';

/*
 * A sender that dies mid-send leaves its mails claimed ('sending') until their lease ends, five minutes later. The
 * same instance starting again knows that nothing of its previous life is still sending, so it gives those mails
 * back at once; another instance's claims are left alone (it may be sending them right now).
 */
describe.each(testDrivers)('mail left mid-send by a crash, after a restart [%s]', (driver) => {
  let database: TestDatabase;
  let smtp: TestSmtpServer;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    smtp = await startSmtpServer();
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });
  afterAll(async () => {
    await smtp?.close();
    await database?.close();
  });

  async function start(instanceId: string): Promise<FastifyInstance> {
    const config = testConfig({ SMTP_URL: smtp.url });
    const app = await buildApp({ config, database, sessionSecret: TEST_SESSION_SECRET, logger: false, instanceId });
    apps.push(app);
    await app.ready();
    return app;
  }

  async function enqueue(to: string) {
    return database.db.transaction((tx) =>
      enqueueMail(tx, { kind: 'verify-email', to, subject: 'Verify', html: '<p>hi</p>', text: 'hi' }),
    );
  }

  it('sends at once, after the restart, the mail this instance was sending when it died; not another’s', async () => {
    const me = `shop-${crypto.randomUUID()}`;
    const other = `shop-${crypto.randomUUID()}`;
    const first = await start(me);
    const mine = await enqueue('mine@example.com');
    // The previous life claimed it (its SMTP conversation under way) and died: the claim carries its name.
    const [claimed] = await claimDueMail(database.db, {
      now: new Date(),
      leaseSeconds: 300,
      limit: 1,
      messageIdDomain: 'redline.dev',
      holder: me,
    });
    expect(claimed?.id).toBe(mine.id);
    const theirs = await enqueue('theirs@example.com');
    await claimDueMail(database.db, {
      now: new Date(),
      leaseSeconds: 300,
      limit: 1,
      messageIdDomain: 'redline.dev',
      holder: other,
    });
    await first.close();

    const again = await start(me);
    const result = await again.services.jobs.mail.run();
    expect(result.sent).toBe(1);
    expect(smtp.received.flatMap((mail) => mail.envelope.to)).toEqual(['mine@example.com']);
    const status = async (id: string) =>
      (await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]?.status;
    expect(await status(mine.id)).toBe('sent');
    // The other instance's lease holds until it ends.
    expect(await status(theirs.id)).toBe('sending');
  });
});
