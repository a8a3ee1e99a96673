import fs from 'node:fs';
import path from 'node:path';
import { startSmtpServer } from '../../test/support/smtp-server.ts';
import { MAILBOX_DIR, type StoredMail } from './mailbox-dir.ts';

/**
 * For the browser-test server script: a real SMTP server in that process (the test harness's, with mailparser), and
 * every message it accepts written to MAILBOX_DIR, so specs in any worker can read the links they need.
 */
export async function startMailCatcher(): Promise<{ url: string; close(): Promise<void> }> {
  fs.mkdirSync(MAILBOX_DIR, { recursive: true });
  const smtp = await startSmtpServer();
  let written = 0;
  const flush = () => {
    for (; written < smtp.received.length; written++) {
      const mail = smtp.received[written];
      if (!mail) continue;
      const stored: StoredMail = {
        to: mail.envelope.to.map((address) => address.toLowerCase()),
        subject: mail.parsed.subject ?? '',
        text: mail.parsed.text ?? '',
        html: typeof mail.parsed.html === 'string' ? mail.parsed.html : '',
        receivedAt: Date.now(),
      };
      // Written whole, then renamed: a reader never sees half a message.
      const file = path.join(MAILBOX_DIR, `${String(written).padStart(6, '0')}.json`);
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(stored));
      fs.renameSync(`${file}.tmp`, file);
    }
  };
  // The harness's server keeps what it accepted in `received`; a short poll is enough for a test's pace.
  const timer = setInterval(flush, 100);
  timer.unref();
  return {
    url: smtp.url,
    async close() {
      clearInterval(timer);
      flush();
      await smtp.close();
    },
  };
}
