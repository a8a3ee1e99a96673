import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type LocalOidcProvider, startOidcProvider } from '../test/support/oidc-provider.ts';
import { expect, test, uniqueEmail } from './support/fixtures.ts';

/**
 * The shared browser-test server has no Google credentials, so this file starts its own instance (as
 * e2e/support/start-server.ts does) pointed at a local OpenID provider that speaks Google's protocol.
 */
let provider: LocalOidcProvider;
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
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-e2e-google-'));
    server = spawn(process.execPath, ['src/server/main.ts'], {
      stdio: 'inherit',
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        PUBLIC_URL: origin,
        GOOGLE_CLIENT_ID: 'redline-e2e-client',
        GOOGLE_CLIENT_SECRET: 'redline-e2e-secret',
        GOOGLE_ISSUER: provider.issuer,
        ADMIN_PASSWORD: 'e2e-google-admin-password',
      },
    });
    await waitForHealth(`${origin}/api/health`);
  });

  test.afterAll(async () => {
    server?.kill('SIGTERM');
    await new Promise((resolve) => (server?.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
    fs.rmSync(dataDir, { recursive: true, force: true });
    await provider?.stop();
  });

  test('round trip: from a page that needs sign-in, through Google, back to that page', async ({ page }) => {
    const email = uniqueEmail('google');
    provider.signInAs({ sub: `sub-${email}`, email, email_verified: true, name: 'Gigi Google' });

    await page.goto(`${origin}/allparts`);
    await expect(page).toHaveURL(`${origin}/login`);
    const google = page.getByRole('link', { name: 'Sign In With Google' });
    await expect(google).toBeVisible();
    await google.click();

    await expect(page).toHaveURL(`${origin}/allparts`);
    await expect(page.getByRole('heading', { name: 'Parts', level: 1 })).toBeVisible();
    const navigation = page.getByRole('navigation', { name: 'Main' });
    await expect(navigation.getByText(email)).toBeVisible();
    // The token is stored as the spec says, and no longer in the address bar.
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeTruthy();
    expect(page.url()).not.toContain('token');

    // The display name came from Google.
    await page.goto(`${origin}/dashboard/myprofile`);
    await expect(page.getByRole('heading', { name: 'Gigi Google' })).toBeVisible();
  });

  test('a Google account links to the existing account with the same verified email', async ({ page, request }) => {
    const email = uniqueEmail('linked');
    const signup = await request.post(`${origin}/api/signup`, {
      data: { name: 'Lena Linked', email, password: 'ride-safe-123' },
    });
    expect(signup.status()).toBe(201);
    provider.signInAs({ sub: `sub-${email}`, email: email.toUpperCase(), email_verified: true, name: 'Other Name' });

    await page.goto(`${origin}/register`);
    await page.getByRole('link', { name: 'Sign In With Google' }).click();
    await expect(page).toHaveURL(`${origin}/`);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByText(email)).toBeVisible();
    await page.goto(`${origin}/dashboard/myprofile`);
    await expect(page.getByRole('heading', { name: 'Lena Linked' })).toBeVisible();
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
