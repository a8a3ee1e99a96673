import { renderMail } from './mail-layout.ts';
import type { ClaimedMail, DbExecutor } from './mail-outbox.ts';
import { claimDueMail, markMailAttemptFailed, markMailSent, releaseLeasesOf } from './mail-outbox.ts';
import { type MailLogger, MailSendError, type MailTransport } from './mail-transport.ts';

export interface MailDeliverySettings {
  /** MAIL_FROM, e.g. `Redline Parts <no-reply@redline.dev>`; its domain names the Message-IDs. */
  from: string;
  maxAttempts: number;
  retryBaseSeconds: number;
  /** How long a claim holds a row. Far longer than one SMTP attempt can take (see the transport's timeouts). */
  leaseSeconds?: number;
  /** Rows claimed per round; one run keeps claiming until the outbox has nothing due. */
  batchSize?: number;
  /** This instance's name (INSTANCE_ID), written on each claim so that its next start can give its leases back. */
  holder?: string;
}

export interface DeliveryResult {
  sent: number;
  retrying: number;
  failed: number;
}

export interface DeliveryOptions {
  log: MailLogger;
  /** The clock, replaceable in tests. */
  now?: () => Date;
}

/** Rounds per run: a run ends even if mail keeps arriving, and the next run (or kick) continues. */
const MAX_ROUNDS = 50;

/**
 * The mail delivery job: claims due mails, sends each, records the outcome. Safe to run on every instance at once
 * (claims skip each other's rows) and after any crash (an abandoned claim is retried when its lease ends, with the
 * same Message-ID).
 */
export async function deliverDueMail(
  db: DbExecutor,
  transport: MailTransport,
  settings: MailDeliverySettings,
  options: DeliveryOptions,
): Promise<DeliveryResult> {
  const now = options.now ?? (() => new Date());
  const batchSize = settings.batchSize ?? 20;
  const result: DeliveryResult = { sent: 0, retrying: 0, failed: 0 };
  const messageIdDomain = domainOf(settings.from);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const claimed = await claimDueMail(db, {
      now: now(),
      leaseSeconds: settings.leaseSeconds ?? 300,
      limit: batchSize,
      messageIdDomain,
      ...(settings.holder ? { holder: settings.holder } : {}),
    });
    for (const mail of claimed) {
      const log = { mailId: mail.id, kind: mail.kind, attempt: mail.attempts };
      if (mail.attempts > settings.maxAttempts) {
        // Its last attempt was claimed by a sender that died: give up rather than try once more than allowed.
        await markMailAttemptFailed(db, mail, {
          now: now(),
          error: 'the last attempt was interrupted',
          permanent: true,
          maxAttempts: settings.maxAttempts,
          retryBaseSeconds: settings.retryBaseSeconds,
        });
        result.failed += 1;
        options.log.warn(log, 'mail given up');
        continue;
      }
      try {
        const response = await transport.send({
          id: mail.id,
          messageId: mail.messageId,
          from: settings.from,
          to: mail.recipient,
          subject: mail.subject,
          html: await htmlOf(mail),
          text: mail.text,
          date: mail.createdAt,
        });
        await markMailSent(db, mail, { now: now(), response });
        result.sent += 1;
      } catch (error) {
        const permanent = error instanceof MailSendError && error.permanent;
        const message = error instanceof Error ? error.message : String(error);
        const outcome = await markMailAttemptFailed(db, mail, {
          now: now(),
          error: message,
          permanent,
          maxAttempts: settings.maxAttempts,
          retryBaseSeconds: settings.retryBaseSeconds,
        });
        result[outcome === 'failed' ? 'failed' : 'retrying'] += 1;
        // Server replies often quote the address: logs keep the row id, never the recipient.
        options.log.warn(
          { ...log, error: redactAddresses(message) },
          outcome === 'failed' ? 'mail given up' : 'mail attempt failed, will retry',
        );
      }
    }
    if (claimed.length < batchSize) break;
  }
  return result;
}

/** A mail enqueued as its document is rendered here, on each attempt (the same document renders the same HTML). */
async function htmlOf(mail: ClaimedMail): Promise<string> {
  if (mail.html || !mail.document) return mail.html;
  try {
    return (await renderMail(mail.document)).html;
  } catch (error) {
    // A document that cannot be rendered now never will be: give up on it rather than retry.
    throw new MailSendError(`the mail could not be rendered: ${error instanceof Error ? error.message : error}`, true, {
      cause: error,
    });
  }
}

export interface MailDelivery {
  /** One delivery run: the handler for the periodic job. */
  run(): Promise<DeliveryResult>;
  /** Call after the transaction that enqueued a mail commits: delivers it now instead of at the next period. */
  kick(): void;
  /**
   * At start, before any run: the mails this instance was sending when it died are due again at once (not when
   * their lease ends). Answers how many.
   */
  reclaim(): Promise<number>;
  /** Waits for a run under way and refuses later kicks (app close). */
  close(): Promise<void>;
}

/**
 * The delivery job bound to its database and transport, with a kick for low latency. Kicks coalesce: many mails
 * enqueued at once cause one run, plus one more if any arrived during it.
 */
export function createMailDelivery(options: {
  db: DbExecutor;
  transport: MailTransport;
  settings: MailDeliverySettings;
  log: MailLogger;
  now?: () => Date;
}): MailDelivery {
  const { db, transport, settings, log } = options;
  const deliveryOptions: DeliveryOptions = { log, ...(options.now ? { now: options.now } : {}) };
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

  const run = () => deliverDueMail(db, transport, settings, deliveryOptions);
  const loop = async () => {
    do {
      again = false;
      try {
        await run();
      } catch (error) {
        log.warn(
          { error: redactAddresses(error instanceof Error ? error.message : String(error)) },
          'mail delivery failed',
        );
      }
    } while (again && !closed);
    running = undefined;
  };

  return {
    run,
    async reclaim() {
      if (!settings.holder) return 0;
      const released = await releaseLeasesOf(db, settings.holder, (options.now ?? (() => new Date()))());
      if (released > 0)
        log.info({ mails: released }, 'mail left mid-send by this instance before a restart is due again');
      return released;
    },
    kick() {
      if (closed) return;
      if (running) {
        again = true;
        return;
      }
      running = loop();
    },
    async close() {
      closed = true;
      await running;
    },
  };
}

/** The domain of MAIL_FROM, for Message-IDs. */
export function domainOf(from: string): string {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  const domain = address.split('@').pop()?.trim();
  return domain && /^[a-z0-9.-]+$/i.test(domain) ? domain.toLowerCase() : 'localhost';
}

/** Removes email addresses from text bound for logs or the admin panel. */
export function redactAddresses(text: string): string {
  return text.replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, '[address]');
}
