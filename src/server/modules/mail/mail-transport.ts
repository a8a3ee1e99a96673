import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { SendMailOptions } from 'nodemailer';

/** One mail as it leaves the shop. */
export interface OutgoingMail {
  /** The outbox row id: the .eml file is named after it, so a retry overwrites rather than duplicates. */
  id: string;
  messageId: string;
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** The Date header: when the mail was enqueued, the same on every retry. */
  date: Date;
}

export interface MailTransport {
  readonly kind: 'smtp' | 'file';
  /** Resolves with what the server answered (or the file written); rejects with a `MailSendError`. */
  send(mail: OutgoingMail): Promise<string>;
  close(): void;
}

/** A failed send. `permanent` when retrying cannot help: the server refused this recipient (5xx at RCPT TO). */
export class MailSendError extends Error {
  readonly permanent: boolean;
  constructor(message: string, permanent: boolean, options?: ErrorOptions) {
    super(message, options);
    this.name = 'MailSendError';
    this.permanent = permanent;
  }
}

export interface MailLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** SMTP when SMTP_URL is set; otherwise .eml files under DATA_DIR/mail, so the embedded default needs no server. */
export function createMailTransport(
  config: { SMTP_URL?: string | undefined; DATA_DIR: string },
  log: MailLogger,
): MailTransport {
  return config.SMTP_URL
    ? createSmtpTransport(config.SMTP_URL)
    : createFileTransport(path.join(config.DATA_DIR, 'mail'), log);
}

/**
 * nodemailer is loaded when a transport first needs it: with mail written to files that is the first mail, so a
 * server at rest does not hold its heap (memory at rest has a budget: docs/performance.md).
 */
function nodemailer(): typeof import('nodemailer') {
  return createRequire(import.meta.url)('nodemailer') as typeof import('nodemailer');
}

function createComposer() {
  return nodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
}

/**
 * nodemailer over SMTP (STARTTLS when the server offers it; smtps:// for implicit TLS). The timeouts keep one
 * attempt well inside the outbox lease, so a slow server can never make two instances send the same row.
 */
export function createSmtpTransport(url: string): MailTransport {
  const transporter = nodemailer().createTransport({
    url,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
  return {
    kind: 'smtp',
    async send(mail) {
      try {
        const info = await transporter.sendMail(message(mail));
        return String(info.response ?? 'accepted');
      } catch (error) {
        throw toSendError(error);
      }
    },
    close: () => transporter.close(),
  };
}

/** Writes each mail as `<created>-<id>.eml` (temp name, then rename: a reader never sees half a file). */
export function createFileTransport(directory: string, log: MailLogger): MailTransport {
  let composer: ReturnType<typeof createComposer> | undefined;
  // Mails carry one-time links: only the shop's own user may read them (mode 0700, files 0600).
  // The directory is made once, not before every mail (a mkdir per mail showed in the server's CPU profile under
  // checkout load); a mail whose write finds it gone (someone removed it) makes it again and writes once more.
  let made: Promise<unknown> | undefined;
  const makeDirectory = (again = false) => {
    if (again || !made) {
      made = fs.mkdir(directory, { recursive: true, mode: 0o700 }).catch((error: unknown) => {
        made = undefined; // tried again by the next mail
        throw error;
      });
    }
    return made;
  };
  const write = async (file: string, raw: Buffer, again = false): Promise<void> => {
    await makeDirectory(again);
    const temporary = `${file}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    try {
      await fs.writeFile(temporary, raw, { mode: 0o600 });
      await fs.rename(temporary, file);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      if (!again && (error as NodeJS.ErrnoException).code === 'ENOENT') return write(file, raw, true);
      throw new MailSendError(`could not write ${file}: ${(error as Error).message}`, false, { cause: error });
    }
  };
  return {
    kind: 'file',
    async send(mail) {
      composer ??= createComposer();
      const info = await composer.sendMail(message(mail));
      const raw = info.message as unknown as Buffer;
      const stamp = mail.date.toISOString().replace(/[:.]/g, '-');
      const file = path.join(directory, `${stamp}-${mail.id}.eml`);
      await write(file, raw);
      // The development stand-in for an inbox: say where the mail is. Not to whom nor its subject: subjects name
      // people ('New paid order: … from <buyer>'), and personal data stays out of logs (the file holds it all).
      log.info({ file, mailId: mail.id }, 'mail written to file');
      return `file ${file}`;
    },
    close: () => composer?.close(),
  };
}

function message(mail: OutgoingMail): SendMailOptions {
  return {
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    messageId: mail.messageId,
    date: mail.date,
    // RFC 3834: machine-sent, so out-of-office robots do not answer it.
    headers: { 'Auto-Submitted': 'auto-generated' },
  };
}

interface SmtpErrorFields {
  responseCode?: number;
  command?: string;
  code?: string;
}

function toSendError(error: unknown): MailSendError {
  const fields = (error ?? {}) as SmtpErrorFields;
  const code = fields.responseCode;
  // Only a refused recipient is final. A 5xx elsewhere (authentication, sender, a misconfigured relay) is the shop's
  // problem, fixed by an operator: those keep their retries.
  const permanent = code !== undefined && code >= 500 && code < 600 && fields.command === 'RCPT TO';
  const message = error instanceof Error ? error.message : String(error);
  return new MailSendError(message, permanent, { cause: error });
}
