import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns.ts';

export const mailStatuses = ['pending', 'sending', 'sent', 'failed'] as const;

export type MailStatus = (typeof mailStatuses)[number];

/**
 * Transactional outbox: a mail is a row written in the same transaction as the change that causes it, and a job
 * delivers it. The Message-ID is derived from the row id, so a re-send after a crash carries the same one.
 * Bodies are cleared once sent: they carry one-time links (verify, reset) that must not outlive their delivery.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The template that rendered it, e.g. `verify-email`: for counts and logs, which never name the recipient. */
    kind: text('kind').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    html: text('html'),
    text: text('text'),
    /**
     * The mail as data (mail-layout's MailDocument) when its HTML is rendered at delivery rather than before the
     * transaction that enqueued it (a checkout's order-placed mail). Subject and text are written at once.
     */
    document: jsonb('document'),
    status: text('status', { enum: mailStatuses }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When `pending`: the next try. When `sending`: the end of the claim's lease, after which a sender that died
     * is taken over (same Message-ID). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    /** When `sending`: the instance holding the lease. Its next start gives the row back at once (it died mid-send). */
    leasedBy: text('leased_by'),
    lastError: text('last_error'),
    /** `<row id@MAIL_FROM's domain>`, fixed by the first delivery attempt and reused by every retry. */
    messageId: text('message_id'),
    /** What the SMTP server answered on acceptance (its queue id), or the .eml file written. */
    deliveryResponse: text('delivery_response'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('mail_outbox_status_valid', sql`${t.status} in ('pending', 'sending', 'sent', 'failed')`),
    check('mail_outbox_attempts_non_negative', sql`${t.attempts} >= 0`),
    // The delivery job's claim reads only unsent rows in due order.
    index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'sending')`),
    index('mail_outbox_created_at_idx').on(t.createdAt),
  ],
);
