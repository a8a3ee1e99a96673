import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { passwordChangedMail } from './account-mails.ts';
import { createMailTransport, type OutgoingMail } from './mail-transport.ts';

describe('mail without SMTP_URL: .eml files under DATA_DIR/mail', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-mail-'));
  });
  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function outgoing(): Promise<OutgoingMail> {
    const content = await passwordChangedMail({
      name: 'Ann',
      changedAt: new Date('2030-01-01T10:00:00Z'),
      resetUrl: 'https://redline.dev/forgot-password',
    });
    return {
      id: '0b5c6f1e-2a43-4e43-9a55-3a1f4a3e2b10',
      messageId: '<0b5c6f1e-2a43-4e43-9a55-3a1f4a3e2b10@redline.dev>',
      from: 'Redline Parts <no-reply@redline.dev>',
      to: 'ann@example.com',
      date: new Date('2030-01-01T10:00:00Z'),
      ...content,
    };
  }

  it('makes the mail directory again when it was removed after the first mail', async () => {
    const transport = createMailTransport({ DATA_DIR: dataDir }, { info: () => {}, warn: () => {} });
    const mail = await outgoing();
    await transport.send(mail);
    fs.rmSync(path.join(dataDir, 'mail'), { recursive: true });
    await transport.send({ ...mail, id: '1b5c6f1e-2a43-4e43-9a55-3a1f4a3e2b10' });
    transport.close();
    expect(fs.readdirSync(path.join(dataDir, 'mail'))).toEqual([
      '2030-01-01T10-00-00-000Z-1b5c6f1e-2a43-4e43-9a55-3a1f4a3e2b10.eml',
    ]);
    expect(fs.statSync(path.join(dataDir, 'mail')).mode & 0o777).toBe(0o700);
  });

  it('writes a mailparser-readable .eml file and logs its name, never its recipient or subject', async () => {
    const lines: Array<{ obj: object; msg: string }> = [];
    const log = { info: (obj: object, msg: string) => lines.push({ obj, msg }), warn: () => {} };
    const transport = createMailTransport({ DATA_DIR: dataDir }, log);
    expect(transport.kind).toBe('file');
    const mail = await outgoing();

    const response = await transport.send(mail);
    transport.close();

    const files = fs.readdirSync(path.join(dataDir, 'mail'));
    expect(files).toEqual([`2030-01-01T10-00-00-000Z-${mail.id}.eml`]);
    const file = path.join(dataDir, 'mail', files[0] ?? '');
    expect(response).toBe(`file ${file}`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const parsed = await simpleParser(fs.readFileSync(file));
    expect(parsed.subject).toBe('Your Redline Parts password was changed');
    expect(parsed.messageId).toBe(mail.messageId);
    expect(parsed.html).toContain('Your password was changed');
    expect(parsed.text).toContain('January 1, 2030 at 10:00 AM UTC');
    // A subject can name a person ('New paid order: $520.00 from ann@example.com'): the log keeps the file and id.
    expect(lines).toEqual([{ obj: { file, mailId: mail.id }, msg: 'mail written to file' }]);
  });

  it('keeps a subject that names a buyer out of the log', async () => {
    const lines: string[] = [];
    const log = { info: (obj: object, msg: string) => lines.push(JSON.stringify({ obj, msg })), warn: () => {} };
    const transport = createMailTransport({ DATA_DIR: dataDir }, log);
    const mail = {
      ...(await outgoing()),
      to: 'owner@shop.test',
      subject: 'New paid order: $520.00 from ann@buyer.test',
    };
    await transport.send(mail);
    transport.close();
    expect(lines).toHaveLength(1);
    expect(lines.join('\n')).not.toMatch(/ann@buyer\.test|owner@shop\.test|New paid order/);
  });

  it('a retry of the same mail overwrites its file, never leaves a second one or a temp file', async () => {
    const transport = createMailTransport({ DATA_DIR: dataDir }, { info: () => {}, warn: () => {} });
    const mail = await outgoing();
    await transport.send(mail);
    await transport.send(mail);
    transport.close();
    expect(fs.readdirSync(path.join(dataDir, 'mail'))).toHaveLength(1);
  });

  it('SMTP_URL picks the SMTP transport', () => {
    const transport = createMailTransport(
      { DATA_DIR: dataDir, SMTP_URL: 'smtp://127.0.0.1:2525' },
      { info: () => {}, warn: () => {} },
    );
    expect(transport.kind).toBe('smtp');
    transport.close();
  });
});
