import { and, asc, count, desc, eq, gt, inArray, isNotNull, lt, lte, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { type MailStatus, mailOutbox } from '../../db/schema.ts';
import { type MailDocument, mailTextParts } from './mail-layout.ts';

/** The outer handle or a transaction: `enqueueMail` takes the transaction of the change that causes the mail. */
export type DbExecutor = Database | Transaction;

export interface MailMessage {
  /** The template's name, e.g. `verify-email`. Logs and counts name the kind, never the recipient. */
  kind: string;
  to: string;
  subject: string;
  html: string;
  text: string;
}

/**
 * A mail enqueued as its document (mail-layout): subject and text are written at once (cheap), the HTML is rendered
 * by the delivery job from the stored document, so a transaction that enqueues it spends no time in React.
 */
export interface MailDocumentMessage {
  kind: string;
  to: string;
  document: MailDocument;
}

/** A row claimed for one delivery attempt. */
export interface ClaimedMail {
  id: string;
  kind: string;
  recipient: string;
  subject: string;
  html: string;
  text: string;
  /** The document the HTML is rendered from at delivery, when `html` was not rendered before (else null). */
  document: MailDocument | null;
  /** This attempt's number, from 1. */
  attempts: number;
  messageId: string;
  createdAt: Date;
}

const KIND_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * Writes a mail to the outbox inside the caller's transaction: it is sent if and only if that transaction commits.
 * Either rendered first (templates are async and take milliseconds; render, then open the transaction), or as its
 * document, whose HTML the delivery job renders (subject and text are written now).
 */
export async function enqueueMail(tx: DbExecutor, message: MailMessage | MailDocumentMessage): Promise<{ id: string }> {
  if (!KIND_PATTERN.test(message.kind)) throw new Error('Mail kind must be a short kebab-case name');
  // One address, no header folding: what reaches the SMTP envelope is exactly one recipient.
  if (!/^[^\s@<>,;"]+@[^\s@<>,;"]+$/.test(message.to) || message.to.length > 254) {
    throw new Error('Mail recipient must be one plain email address');
  }
  const content =
    'document' in message
      ? { ...mailTextParts(message.document), html: null, document: message.document }
      : { subject: message.subject, html: message.html, text: message.text, document: null };
  // Written as SQL rather than with Drizzle's insert builder (which names every column of the table): this runs in
  // every checkout's transaction, and building the statement was a visible share of a checkout's CPU.
  const result = await tx.execute(sql`
    insert into ${mailOutbox} (kind, recipient, subject, html, text, document)
    values (${message.kind}::text, ${message.to}::text, ${content.subject.replace(/\s+/g, ' ').trim()}::text,
            ${content.html}::text, ${content.text}::text,
            ${content.document === null ? null : JSON.stringify(content.document)}::jsonb)
    returning id`);
  const row = rowsOf<{ id: string }>(result)[0];
  if (!row) throw new Error('mail not enqueued');
  return { id: row.id };
}

/**
 * Claims up to `limit` due mails for one attempt each: pending ones whose time has come, and `sending` ones whose
 * lease ran out (their sender died). One statement with SKIP LOCKED, so two instances never claim the same row;
 * the lease (kept in next_attempt_at) is what a sender that dies mid-send leaves behind.
 */
export async function claimDueMail(
  db: DbExecutor,
  options: {
    now: Date;
    leaseSeconds: number;
    limit: number;
    messageIdDomain: string;
    /** The instance claiming (INSTANCE_ID): its next start gives back what it still holds (`releaseLeasesOf`). */
    holder?: string;
  },
): Promise<ClaimedMail[]> {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(inArray(mailOutbox.status, ['pending', 'sending']), lte(mailOutbox.nextAttemptAt, options.now)))
    .orderBy(asc(mailOutbox.nextAttemptAt))
    .limit(options.limit)
    .for('update', { skipLocked: true });
  const leaseEnds = new Date(options.now.getTime() + options.leaseSeconds * 1000);
  const rows = await db
    .update(mailOutbox)
    .set({
      status: 'sending',
      attempts: sql`${mailOutbox.attempts} + 1`,
      nextAttemptAt: leaseEnds,
      lastAttemptAt: options.now,
      leasedBy: options.holder ?? null,
      // Fixed on the first attempt and never changed: a re-send after a crash is recognisably the same mail.
      messageId: sql`coalesce(${mailOutbox.messageId}, '<' || ${mailOutbox.id}::text || '@' || ${options.messageIdDomain}::text || '>')`,
    })
    .where(inArray(mailOutbox.id, due))
    .returning();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    recipient: row.recipient,
    subject: row.subject,
    html: row.html ?? '',
    text: row.text ?? '',
    document: (row.document as MailDocument | null) ?? null,
    attempts: row.attempts,
    messageId: row.messageId ?? '',
    createdAt: row.createdAt,
  }));
}

/**
 * At an instance's start: the mails its previous life had claimed are due again now rather than when their lease
 * ends. That life is over (nothing of this one has claimed yet), so no send of them is still under way; a mail it
 * sent but could not record is sent again with the same Message-ID, as after any lease. Another instance's leases
 * are left alone: it may be sending them right now.
 */
export async function releaseLeasesOf(db: DbExecutor, holder: string, now: Date): Promise<number> {
  const rows = await db
    .update(mailOutbox)
    .set({ nextAttemptAt: now })
    .where(and(eq(mailOutbox.status, 'sending'), eq(mailOutbox.leasedBy, holder), gt(mailOutbox.nextAttemptAt, now)))
    .returning({ id: mailOutbox.id });
  return rows.length;
}

/**
 * Records an accepted mail and drops its bodies. Fenced on the attempt number: if this sender's lease ran out and
 * another took the row over, the other's outcome stands.
 */
export async function markMailSent(
  db: DbExecutor,
  mail: Pick<ClaimedMail, 'id' | 'attempts'>,
  result: { now: Date; response: string },
): Promise<boolean> {
  const rows = await db
    .update(mailOutbox)
    .set({
      status: 'sent',
      sentAt: result.now,
      deliveryResponse: result.response.slice(0, 500),
      lastError: null,
      html: null,
      text: null,
      document: null,
    })
    .where(claimedBy(mail))
    .returning({ id: mailOutbox.id });
  return rows.length === 1;
}

/** Schedules the next attempt with exponential back-off, or gives up: after the last attempt, or at once if permanent. */
export async function markMailAttemptFailed(
  db: DbExecutor,
  mail: Pick<ClaimedMail, 'id' | 'attempts'>,
  failure: { now: Date; error: string; permanent: boolean; maxAttempts: number; retryBaseSeconds: number },
): Promise<'retry' | 'failed'> {
  const giveUp = failure.permanent || mail.attempts >= failure.maxAttempts;
  const next = new Date(failure.now.getTime() + retryDelaySeconds(mail.attempts, failure.retryBaseSeconds) * 1000);
  await db
    .update(mailOutbox)
    .set({
      status: giveUp ? 'failed' : 'pending',
      nextAttemptAt: giveUp ? failure.now : next,
      lastError: failure.error.slice(0, 500),
    })
    .where(claimedBy(mail));
  return giveUp ? 'failed' : 'retry';
}

/** 1 × base after the first attempt, then 2 ×, 4 × …, never more than six hours. */
export function retryDelaySeconds(attempt: number, baseSeconds: number): number {
  return Math.min(baseSeconds * 2 ** Math.max(0, attempt - 1), 6 * 3600);
}

function claimedBy(mail: Pick<ClaimedMail, 'id' | 'attempts'>) {
  return and(eq(mailOutbox.id, mail.id), eq(mailOutbox.status, 'sending'), eq(mailOutbox.attempts, mail.attempts));
}

export interface MailOutboxStats {
  counts: Record<MailStatus, number>;
  /** The most recent failed attempt: the mail's id and kind and the error, never the recipient. */
  lastError: { id: string; kind: string; message: string; at: Date } | null;
}

/** For the admin panel: how many mails wait, are being sent, went out or were given up, and the last error. */
export async function mailOutboxStats(db: DbExecutor): Promise<MailOutboxStats> {
  const rows = await db.select({ status: mailOutbox.status, n: count() }).from(mailOutbox).groupBy(mailOutbox.status);
  const counts: Record<MailStatus, number> = { pending: 0, sending: 0, sent: 0, failed: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  const [last] = await db
    .select({ id: mailOutbox.id, kind: mailOutbox.kind, message: mailOutbox.lastError, at: mailOutbox.lastAttemptAt })
    .from(mailOutbox)
    .where(and(isNotNull(mailOutbox.lastError), isNotNull(mailOutbox.lastAttemptAt)))
    .orderBy(desc(mailOutbox.lastAttemptAt))
    .limit(1);
  return {
    counts,
    lastError: last?.message && last.at ? { id: last.id, kind: last.kind, message: last.message, at: last.at } : null,
  };
}

/** Housekeeping: sent and given-up mails older than `keepDays` are deleted (the recipient is personal data). */
export async function purgeOldMail(db: DbExecutor, options: { now: Date; keepDays: number }): Promise<number> {
  const cutoff = new Date(options.now.getTime() - options.keepDays * 86_400_000);
  const rows = await db
    .delete(mailOutbox)
    .where(and(inArray(mailOutbox.status, ['sent', 'failed']), lt(mailOutbox.createdAt, cutoff)))
    .returning({ id: mailOutbox.id });
  return rows.length;
}
