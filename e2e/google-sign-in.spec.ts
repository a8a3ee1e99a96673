import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Browser, BrowserContext } from '@playwright/test';
import { SERVER_BUNDLE } from '../scripts/build-server.ts';
import { type LocalOidcProvider, startOidcProvider } from '../test/support/oidc-provider.ts';
import { startSmtpServer, type TestSmtpServer } from '../test/support/smtp-server.ts';
import { expect, expectAccessible, httpErrorMessage, test, uniqueEmail } from './support/fixtures.ts';

/**
 * The shared browser-test server has no Google credentials, so this file starts its own instance (as
 * e2e/support/start-server.ts does) pointed at a local OpenID provider that speaks Google's protocol, and at a real
 * SMTP server in this worker, whose mail the tests read.
 */
let provider: LocalOidcProvider;
let smtp: TestSmtpServer;
let server: ChildProcess;
let dataDir: string;
let origin: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server at ${url} did not start`);
}

test.describe('Sign In With Google', () => {
  test.describe.configure({ mode: 'serial' });

  test.beforeAll(async () => {
    // Starting a second production server can take a while on a busy machine.
    test.setTimeout(120_000);
    provider = await startOidcProvider();
    smtp = await startSmtpServer();
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-e2e-google-'));
    server = spawn(process.execPath, [SERVER_BUNDLE], {
      stdio: 'inherit',
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        NODE_ENV: 'production',
        PAYMENT_PROVIDER: 'test',
        LOG_LEVEL: 'warn',
        PUBLIC_URL: origin,
        GOOGLE_CLIENT_ID: 'redline-e2e-client',
        GOOGLE_CLIENT_SECRET: 'redline-e2e-secret',
        GOOGLE_ISSUER: provider.issuer,
        ADMIN_PASSWORD: 'e2e-google-admin-password',
        SMTP_URL: smtp.url,
        MAIL_POLL_SECONDS: '1',
      },
    });
    await waitForHealth(`${origin}/api/health`);
  });

  test.afterAll(async () => {
    server?.kill('SIGTERM');
    await new Promise((resolve) => (server?.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
    fs.rmSync(dataDir, { recursive: true, force: true });
    await provider?.stop();
    await smtp?.close();
  });

  test('round trip: from a page that needs sign-in, through Google, back to that page', async ({ page }) => {
    const email = uniqueEmail('google');
    provider.signInAs({ sub: `sub-${email}`, email, email_verified: true, name: 'Gigi Google' });

    // My Order needs a sign-in (the parts list is public).
    await page.goto(`${origin}/dashboard/myorder`);
    await expect(page).toHaveURL(`${origin}/login`);
    const google = page.getByRole('link', { name: 'Sign In With Google' });
    await expect(google).toBeVisible();
    await google.click();

    await expect(page).toHaveURL(`${origin}/dashboard/myorder`);
    await expect(page.getByRole('heading', { name: 'My Order', level: 1 })).toBeVisible();
    const navigation = page.getByRole('navigation', { name: 'Main' });
    await expect(navigation.getByText(email)).toBeVisible();
    // The token is stored as the spec says, and no longer in the address bar.
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeTruthy();
    expect(page.url()).not.toContain('token');

    // The display name came from Google.
    await page.goto(`${origin}/dashboard/myprofile`);
    await expect(page.getByRole('heading', { name: 'Gigi Google' })).toBeVisible();
  });

  test('a Google account links to the password account of its email once that email is verified', async ({
    page,
    request,
  }) => {
    // A sign-up makes an account only when its mailed link is opened, and that link verifies the email; an older
    // account whose email is not verified refuses Google (H1): google-sign-in.test.ts.
    const email = uniqueEmail('linked');
    const passwordSession = await signUpHere(request, 'Lena Linked', email);
    provider.signInAs({ sub: `sub-${email}`, email: email.toUpperCase(), email_verified: true, name: 'Other Name' });

    await page.goto(`${origin}/register`);
    await page.getByRole('link', { name: 'Sign In With Google' }).click();
    await expect(page).toHaveURL(`${origin}/`);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByText(email)).toBeVisible();
    await page.goto(`${origin}/dashboard/myprofile`);
    await expect(page.getByRole('heading', { name: 'Lena Linked' })).toBeVisible();

    // Linking ended the account's other sessions and told the owner.
    const me = await request.get(`${origin}/api/me`, { headers: { authorization: `Bearer ${passwordSession}` } });
    expect(me.status()).toBe(401);
    await waitForMail(email, /sign-in was linked/i);
  });

  test('the sign-in is bound to the browser that started it: its callback fails in another browser', async ({
    page,
    browser,
  }) => {
    const email = uniqueEmail('bound');
    provider.signInAs({ sub: `sub-${email}`, email, email_verified: true, name: 'Bea Bound' });

    // The victim's browser is lured to the attacker's half-done sign-in: the provider's redirect to our callback.
    const callbackUrl = await providerCallbackFrom(browser);
    await page.goto(callbackUrl);
    await expect(page).toHaveURL(`${origin}/auth/callback`);
    await expect(page.getByRole('alert')).toHaveText(
      'This sign-in was started in another browser or tab that is no longer open. Please start it again here.',
    );
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' })).toBeVisible();
  });

  test('the one-time code of the callback cannot be redeemed by another browser', async ({
    page,
    browser,
    allowConsoleMessage,
  }) => {
    // The code redeemed by the wrong browser is refused: 400.
    allowConsoleMessage(httpErrorMessage(400, '/api/auth/google/redeem'));
    const email = uniqueEmail('code');
    provider.signInAs({ sub: `sub-${email}`, email, email_verified: true, name: 'Cody Code' });

    // The starting browser gets as far as the code, without opening it.
    const starter = await browser.newContext();
    const callback = await providerCallback(starter);
    const landing = await starter.request.get(callback, { maxRedirects: 0 });
    const location = landing.headers().location ?? '';
    expect(location).toMatch(/^\/auth\/callback#code=/);
    await starter.close();

    await page.goto(`${origin}${location}`);
    await expect(page.getByRole('alert')).toHaveText(
      'This sign-in link is not valid or has expired. Please try again.',
    );
    expect(page.url()).not.toContain('code');
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
  });

  test('signed in as A, a Google sign-in as B asks first: Stay keeps A, Continue switches to B', async ({
    page,
    request,
  }) => {
    const a = uniqueEmail('first');
    const tokenA = await signUpHere(request, 'Ann First', a);
    const b = uniqueEmail('second');
    provider.signInAs({ sub: `sub-${b}`, email: b, email_verified: true, name: 'Ben Second' });
    await page.addInitScript((token) => {
      if (!sessionStorage.getItem('signed-in')) {
        localStorage.setItem('accessToken', token);
        sessionStorage.setItem('signed-in', '1');
      }
    }, tokenA);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const authHeader = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

    // Stay as A: A is still signed in, and the session B's sign-in opened is ended.
    let redeemed = page.waitForResponse((response) => response.url().endsWith('/api/auth/google/redeem'));
    await page.goto(`${origin}/api/auth/google?returnTo=%2Fallparts`);
    await expect(page.getByText(`You are signed in as ${a}. Continue as ${b}?`)).toBeVisible();
    await expectAccessible(page);
    const tokenB1 = ((await (await redeemed).json()) as { token: string }).token;
    await page.getByRole('button', { name: `Stay as ${a}` }).click();
    await expect(page).toHaveURL(`${origin}/`);
    await expect(nav.getByText(a)).toBeVisible();
    await expect.poll(async () => (await request.get(`${origin}/api/me`, authHeader(tokenB1))).status()).toBe(401);
    expect((await request.get(`${origin}/api/me`, authHeader(tokenA))).status()).toBe(200);

    // Continue as B: B is signed in, where the sign-in started from; A's session here is ended.
    redeemed = page.waitForResponse((response) => response.url().endsWith('/api/auth/google/redeem'));
    await page.goto(`${origin}/api/auth/google?returnTo=%2Fallparts`);
    await redeemed;
    await page.getByRole('button', { name: `Continue as ${b}` }).click();
    await expect(page).toHaveURL(`${origin}/allparts`);
    await expect(nav.getByText(b)).toBeVisible();
    await expect.poll(async () => (await request.get(`${origin}/api/me`, authHeader(tokenA))).status()).toBe(401);
  });

  test('an unverified Google email is refused with a clear message', async ({ page }) => {
    provider.signInAs({ sub: 'sub-unverified', email: uniqueEmail('unverified'), email_verified: false, name: 'U' });
    await page.goto(`${origin}/login`);
    await page.getByRole('link', { name: 'Sign In With Google' }).click();
    await expect(page).toHaveURL(`${origin}/auth/callback`);
    await expect(page.getByRole('alert')).toContainText('not verified');
    await page.getByRole('link', { name: 'Back to Login' }).click();
    await expect(page.getByRole('heading', { name: 'Please Login' })).toBeVisible();
  });
});

/** The newest mail the shop sent to `to` whose subject matches, once it has arrived. */
async function waitForMail(to: string, subject: RegExp) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mail = smtp.received
      .filter((item) => item.envelope.to.includes(to.toLowerCase()) && subject.test(item.parsed.subject ?? ''))
      .at(-1);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The path and fragment of the link to `pagePath` in the newest verification mail to `to`. */
/** A password account made as a person makes one: the sign-up, then its mailed link. Answers its session's token. */
async function signUpHere(request: APIRequestContext, name: string, email: string): Promise<string> {
  const signup = await request.post(`${origin}/api/signup`, { data: { name, email, password: 'ride-safe-123' } });
  expect(signup.status()).toBe(202);
  const token = new URLSearchParams((await mailLink(email, '/verify-email')).split('#')[1] ?? '').get('token');
  const verified = await request.post(`${origin}/api/email/verify`, { data: { token } });
  expect(verified.status()).toBe(200);
  return ((await verified.json()) as { token: string }).token;
}

async function mailLink(to: string, pagePath: string): Promise<string> {
  const mail = await waitForMail(to, /verify your email/i);
  const url = (mail.parsed.text ?? '').match(/https?:\/\/\S+/g)?.find((item) => new URL(item).pathname === pagePath);
  if (!url) throw new Error(`no ${pagePath} link in the mail`);
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.hash}`;
}

/**
 * Starts a sign-in in `context` and stops where the provider sends that browser back to our callback: the address
 * an attacker would hand a victim. Done with the context's own request API, which shares its cookies: the browser
 * binding cookie lands in that context and no other. (Routing a page would not do: Playwright routes only the first
 * request of a redirect chain.)
 */
async function providerCallback(context: BrowserContext): Promise<string> {
  const start = await context.request.get(`${origin}/api/auth/google?returnTo=%2F`, { maxRedirects: 0 });
  expect(start.status()).toBe(302);
  const toProvider = start.headers().location ?? '';
  expect(toProvider.startsWith(provider.issuer)).toBe(true);
  const back = await context.request.get(toProvider, { maxRedirects: 0 });
  const callback = back.headers().location ?? '';
  expect(callback).toContain('/api/auth/google/callback?');
  return callback;
}

/** The same from a browser of its own, closed afterwards. */
async function providerCallbackFrom(browser: Browser): Promise<string> {
  const context = await browser.newContext();
  try {
    return await providerCallback(context);
  } finally {
    await context.close();
  }
}
