import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  parsed: ParsedMail;
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** Messages refused at DATA (by `refuseNext`), raw: what a retry must repeat. */
  refused: Buffer[];
  /** The next `count` messages are refused at DATA with `code` (451: try again later). */
  refuseNext(count: number, code?: number): void;
  /** Every RCPT TO naming this address is refused with `code` (550: no such user). */
  refuseRecipient(address: string, code?: number): void;
  /** Resolves once `count` messages have arrived, or rejects after `timeoutMs`. */
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/**
 * A real SMTP server in this process on a free loopback port (the OS picks it), which parses what it accepts with
 * mailparser: tests see exactly what a receiving server would. Close it in afterEach / finally.
 */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const refused: Buffer[] = [];
  const refusedRecipients = new Map<string, number>();
  let refusals: { remaining: number; code: number } = { remaining: 0, code: 451 };
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const code = refusedRecipients.get(address.address.toLowerCase());
      if (code) return callback(smtpError(`<${address.address}>: no such user here`, code));
      callback();
    },
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        if (refusals.remaining > 0) {
          refusals = { ...refusals, remaining: refusals.remaining - 1 };
          refused.push(raw);
          return callback(smtpError('Try again later', refusals.code));
        }
        simpleParser(raw)
          .then((parsed) => {
            const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
            received.push({ envelope: { from, to: session.envelope.rcptTo.map((r) => r.address) }, raw, parsed });
            for (const wake of waiters) wake();
            callback(null, `queued as test-${received.length}`);
          })
          .catch((error: Error) => callback(error));
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // Errors after start (a client hanging up) are the client's business, not the test's.
  server.on('error', () => {});
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refused,
    refuseNext(count, code = 451) {
      refusals = { remaining: count, code };
    },
    refuseRecipient(address, code = 550) {
      refusedRecipients.set(address.toLowerCase(), code);
    },
    waitForMessages(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(received.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} messages, got ${received.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function smtpError(message: string, code: number): Error {
  return Object.assign(new Error(message), { responseCode: code });
}
