import { describe, expect, it } from 'vitest';
import { passwordChangedMail, resetPasswordMail, signInMethodLinkedMail, verifyEmailMail } from './account-mails.ts';
import { renderMail } from './mail-layout.ts';

const hostile = 'Ann <img src=https://evil.example/p.gif> & "Co" <script>alert(1)</script>';
const when = new Date('2030-03-04T05:06:00Z');

const mails = {
  'verify your email': () =>
    verifyEmailMail({ name: hostile, verifyUrl: 'https://redline.dev/verify?token=a&b=1', validForHours: 24 }),
  'reset your password': () => resetPasswordMail({ name: hostile, resetUrl: 'https://redline.dev/reset?token=r' }),
  'password changed': () =>
    passwordChangedMail({ name: hostile, changedAt: when, resetUrl: 'https://redline.dev/forgot-password' }),
  'sign-in method linked': () =>
    signInMethodLinkedMail({ name: hostile, method: 'Google', linkedAt: when, accountUrl: 'https://redline.dev/me' }),
};

describe('account mails', () => {
  it('greet the person first and say why they were sent (the account, or the sign-up for verification)', async () => {
    const account = 'You received this email because it concerns your Redline Parts account.';
    for (const [name, make] of Object.entries(mails)) {
      const { text } = await make();
      const body = text.slice(text.indexOf('Hello'));
      expect(body.startsWith(`Hello ${hostile},`), name).toBe(true);
      if (name === 'verify your email') {
        expect(text).toContain('this address was used to create a Redline Parts account');
        expect(text).not.toContain(account);
      } else {
        expect(text, name).toContain(account);
      }
    }
  });

  it.each(Object.entries(mails))(
    '%s: branded, dark-mode and phone ready, no tracking, user text escaped',
    async (_, make) => {
      const mail = await make();
      expect(mail.subject).toMatch(/Redline Parts/);
      expect(mail.html).toContain('Redline Parts');
      expect(mail.html).toContain('#d62828');
      expect(mail.html).toContain('<meta name="color-scheme" content="light dark"/>');
      expect(mail.html).toContain('@media (prefers-color-scheme: dark)');
      expect(mail.html).toContain('max-width:600px');
      expect(mail.html).toContain('lang="en"');
      // No images, pixels or remote resources of any kind: the only URLs are the action's own link.
      expect(mail.html).not.toMatch(/<img|<script|<link|url\(/i);
      const urls = [...mail.html.matchAll(/(?:href|src)="([^"]+)"/g)].map((match) => match[1]);
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) expect(url).toMatch(/^https:\/\/redline\.dev\//);
      // The hostile name arrives as text.
      expect(mail.html).toContain('Ann &lt;img src=https://evil.example/p.gif&gt; &amp; &quot;Co&quot;');
      expect(mail.html).not.toContain('evil.example/p.gif">');
      // A plain-text part with the same words and the link in full.
      expect(mail.text).toContain('Redline Parts');
      expect(mail.text).toContain(`Hello ${hostile},`);
      expect(mail.text).toMatch(/: https:\/\/redline\.dev\//);
    },
  );

  it('the reset mail says its link works for 1 hour; the others say what happened and when', async () => {
    expect((await mails['reset your password']()).text).toContain('This link works for 1 hour.');
    expect((await mails['verify your email']()).text).toContain('This link works for 24 hours.');
    expect((await mails['password changed']()).text).toContain('March 4, 2030 at 5:06 AM UTC');
    const linked = await mails['sign-in method linked']();
    expect(linked.subject).toBe('Google sign-in was linked to your Redline Parts account');
    expect(linked.text).toContain('Method: Google');
  });

  it('greets without a name when there is none', async () => {
    const mail = await resetPasswordMail({ name: '  ', resetUrl: 'https://redline.dev/reset' });
    expect(mail.text).toContain('\nHello,\n');
  });

  it('refuses an action link that is not http(s)', async () => {
    await expect(
      renderMail({
        subject: 's',
        preview: 'p',
        heading: 'h',
        reason: 'r',
        blocks: [{ kind: 'action', label: 'Go', url: 'javascript:alert(1)' }],
      }),
    ).rejects.toThrow('http(s)');
  });

  it('keeps a subject on one line', async () => {
    const mail = await renderMail({
      subject: 'Order\r\nBcc: x@y.z',
      preview: 'p',
      heading: 'h',
      reason: 'r',
      blocks: [],
    });
    expect(mail.subject).toBe('Order Bcc: x@y.z');
  });
});
