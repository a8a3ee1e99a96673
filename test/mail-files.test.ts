import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServer, waitForHealthy, waitForOutput } from './support/server-process.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-mailfiles-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('the production server without SMTP_URL', () => {
  it('writes each mail as an .eml file under DATA_DIR/mail that a mail client opens, and logs where', async () => {
    const port = await freePort();
    const server = startServer({ DATA_DIR: dataDir, SEED_DEMO_DATA: 'false', MAIL_POLL_SECONDS: '1' }, port);
    try {
      // A first start creates and migrates the database: slow on a busy machine.
      await waitForHealthy(server, 80_000);
      const email = 'eml-reader@example.com';
      const res = await fetch(`${server.url}/api/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Eml Reader', email, password: 'ride-safe-123' }),
      });
      expect(res.status).toBe(202);
      await waitForOutput(server, /mail written to file/, 30_000);
      const directory = path.join(dataDir, 'mail');
      const files = fs.readdirSync(directory).filter((name) => name.endsWith('.eml'));
      expect(files).toHaveLength(1);
      // Only the shop's own user may read mails that carry one-time links.
      expect(fs.statSync(path.join(directory, files[0] ?? '')).mode & 0o777).toBe(0o600);
      const parsed = await simpleParser(fs.readFileSync(path.join(directory, files[0] ?? '')));
      expect(parsed.subject).toBe('Verify your email for Redline Parts');
      expect(parsed.text).toMatch(new RegExp(`http://localhost:${port}/verify-email#token=[A-Za-z0-9_-]{43}`));
      expect(parsed.html).toBeTruthy();
      expect(server.output()).toContain(files[0]);
    } finally {
      await server.stop();
    }
  }, 150_000);
});
