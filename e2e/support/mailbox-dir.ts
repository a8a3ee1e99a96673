import os from 'node:os';
import path from 'node:path';

/**
 * Where the browser-test server's mail lands, one JSON file per message: inside the run's own temporary directory
 * (playwright.config.ts makes it and removes it), which the runner, the server script and every worker share.
 */
export const MAILBOX_DIR = path.join(process.env.REDLINE_E2E_RUN_DIR ?? os.tmpdir(), 'e2e-mailbox');

/** One received message as the specs read it. */
export interface StoredMail {
  /** The envelope's recipients, lower case. */
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Milliseconds since the epoch, when the SMTP server accepted it. */
  receivedAt: number;
}
