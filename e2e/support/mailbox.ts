import fs from 'node:fs';
import path from 'node:path';
import { MAILBOX_DIR, type StoredMail } from './mailbox-dir.ts';

export type { StoredMail };

function readAll(): StoredMail[] {
  if (!fs.existsSync(MAILBOX_DIR)) return [];
  return fs
    .readdirSync(MAILBOX_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(MAILBOX_DIR, name), 'utf8')) as StoredMail);
}

/** Every message the browser-test server has sent to `to` so far, oldest first. */
export function mailTo(to: string, subject?: RegExp): StoredMail[] {
  const address = to.toLowerCase();
  return readAll().filter((mail) => mail.to.includes(address) && (!subject || subject.test(mail.subject)));
}

/**
 * Waits until the server has sent `to` more than `already` messages whose subject matches, and returns the newest.
 * Mail goes through the outbox and its delivery job, so it arrives a moment after the request that caused it.
 */
export async function waitForMail(
  to: string,
  options: { subject?: RegExp; already?: number; timeoutMs?: number } = {},
): Promise<StoredMail> {
  const { subject, already = 0, timeoutMs = 20_000 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = mailTo(to, subject);
    const newest = found.at(-1);
    if (found.length > already && newest) return newest;
    if (Date.now() > deadline) {
      throw new Error(`no mail to ${to}${subject ? ` matching ${subject}` : ''} within ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The link in a mail's plain-text part that opens `pagePath` (e.g. /verify-email), as a path with its fragment, so
 * the test opens it on its own server whatever origin the mail names.
 */
export function linkIn(mail: Pick<StoredMail, 'text'>, pagePath: string): string {
  const match = mail.text.match(/https?:\/\/[^\s<>"')\]]+/g)?.find((url) => new URL(url).pathname === pagePath);
  if (!match) throw new Error(`no ${pagePath} link in the mail:\n${mail.text}`);
  const url = new URL(match);
  return `${url.pathname}${url.search}${url.hash}`;
}
