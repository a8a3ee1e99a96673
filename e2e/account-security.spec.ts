import type { APIRequestContext, Browser, Page } from '@playwright/test';
// useToken is no React hook: renamed here so the linter's hook rule leaves the plain helper below alone.
import {
  type E2eUser,
  logInOnPage,
  signInAdminViaApi,
  signUpViaApi,
  useToken as startSignedIn,
} from './support/accounts.ts';
import { expect, expectAccessible, httpErrorMessage, test, uniqueEmail } from './support/fixtures.ts';
import { linkIn, mailTo, waitForMail } from './support/mailbox.ts';

/*
 * In the browser: proof of email, a way back in after a forgotten password, sessions the owner controls, and
 * links that cannot sign anyone in. Mail is read from the real SMTP server the test server sends to.
 */

const VERIFY_SUBJECT = /verify your email/i;
const RESET_SUBJECT = /reset your .* password/i;
const INVALID_LINK = 'This link is not valid or has expired. You can ask for a new one.';

/**
 * For what waits on a password hash (sign-up, log in, reset, change): scrypt at N=2^17 takes a moment, and several
 * on a busy machine take longer than the default wait.
 */
const hashing = { timeout: 30_000 };

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('accessToken'));
const me = (request: APIRequestContext, token: string) =>
  request.get('/api/me', { headers: { authorization: `Bearer ${token}` } });

/** A second browser (its own storage and cookies), signed in with `token` on My Profile. */
async function otherBrowser(browser: Browser, token: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await startSignedIn(page, token);
  await page.goto('/dashboard/myprofile');
  await expect(page.getByRole('heading', { name: 'My Profile', level: 1 })).toBeVisible();
  return { context, page };
}

/** The reads a page of an ended session makes (who it is, its garage, its profile): each is refused with 401. */
const ENDED_SESSION_READS = /\/api\/(me|garage|profile)/;

/** The other browser's session has ended: its next page asks to log in again. */
async function expectSignedOut(page: Page) {
  await page.reload();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Please Login' })).toBeVisible();
  expect(await storedToken(page)).toBeNull();
}

test.describe('account security', () => {
  test('the sign-up link from the mail creates the account and signs in, once', async ({
    page,
    allowConsoleMessage,
  }) => {
    // The same link opened again is refused: 400.
    allowConsoleMessage(httpErrorMessage(400, '/api/email/verify'));
    test.slow(); // several password hashes and mails
    const email = uniqueEmail('verify');
    await page.goto('/register');
    await page.getByLabel('Name').fill('Vera Verify');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('ride-safe-123');
    await page.getByRole('button', { name: 'SignUp' }).click();
    await expect(page.getByRole('status')).toHaveText('Check your email to finish signing up', hashing);
    expect(await storedToken(page)).toBeNull();

    const link = linkIn(await waitForMail(email, { subject: VERIFY_SUBJECT }), '/verify-email');
    expect(link).toMatch(/^\/verify-email#token=/);
    await page.goto(link);
    await expect(page).toHaveURL(/\/$/);
    await expect(nav(page).getByText(email)).toBeVisible();
    expect(await storedToken(page)).toBeTruthy();
    await expect(page.getByRole('heading', { name: 'Build Your Store, Sell Your Goods and Earn Money' })).toBeVisible();
    // Verified from the start: no banner asks for it.
    await expect(page.getByRole('complementary', { name: 'Account verification' })).toHaveCount(0);
    await expectAccessible(page);

    // Single use: the same link again says so.
    await page.goto(link);
    await expect(page.getByRole('alert')).toHaveText(INVALID_LINK);
    await expect(page.getByRole('link', { name: 'Go To The Home Page' })).toBeVisible();
    await expectAccessible(page);
  });

  test('a sign-up link works in another browser, and a bad link asks to log in', async ({
    page,
    allowConsoleMessage,
    browser,
    request,
  }) => {
    // The bad link is refused: 400.
    allowConsoleMessage(httpErrorMessage(400, '/api/email/verify'));
    const email = uniqueEmail('elsewhere');
    const signup = await request.post('/api/signup', {
      data: { name: 'Otto Other', email, password: 'ride-safe-123' },
    });
    expect(signup.status()).toBe(202);
    const link = linkIn(await waitForMail(email, { subject: VERIFY_SUBJECT }), '/verify-email');

    await page.goto('/verify-email#token=not-a-real-token');
    await expect(page.getByRole('alert')).toHaveText(INVALID_LINK);
    await expect(page.getByRole('link', { name: 'Please Login' })).toBeVisible();
    await expectAccessible(page);

    // Another browser, where nobody signed up: the link alone proves the address, and signs in there.
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await otherPage.goto(link);
    await expect(nav(otherPage).getByText(email)).toBeVisible();
    await expect(otherPage).toHaveURL(/\/$/);
    const token = String(await storedToken(otherPage));
    await other.close();

    const answer = await me(request, token);
    expect(await answer.json()).toMatchObject({ email, emailVerified: true });
  });

  test('forgot password → reset from the mail → every old session is gone', async ({
    page,
    allowConsoleMessage,
    browser,
    request,
  }) => {
    // The old sessions' reads are refused (401, whichever the page asks first), and so is the used reset link (400).
    allowConsoleMessage(httpErrorMessage(401, ENDED_SESSION_READS));
    allowConsoleMessage(httpErrorMessage(400, '/api/password/reset'));
    test.slow(); // several password hashes and mails
    const customer = await signUpViaApi(request, 'Fern Forgot');
    const elsewhere = await otherBrowser(browser, customer.token);

    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(page.getByRole('heading', { name: 'Forgot Password?' })).toBeVisible();
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByText('Email Is Required')).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel('Email').fill(customer.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    const answer =
      'If an account exists for this email, we sent a link to reset its password. The link is valid for 1 hour.';
    await expect(page.getByText(answer)).toBeVisible();

    const link = linkIn(await waitForMail(customer.email, { subject: RESET_SUBJECT }), '/reset-password');
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Set A New Password' })).toBeVisible();
    expect(page.url()).not.toContain('token');
    await page.getByLabel('New Password', { exact: true }).fill('brand-new-pass-42');
    await page.getByLabel('Confirm New Password').fill('brand-new-pass-43');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByText('Passwords Do Not Match')).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel('Confirm New Password').fill('brand-new-pass-42');
    await page.getByRole('button', { name: 'Set New Password' }).click();

    await expect(page).toHaveURL(/\/login$/, hashing);
    await expect(page.getByText('Your password has been reset. Please log in with your new password.')).toBeVisible();
    // The session of the other browser ended with the reset.
    expect((await me(request, customer.token)).status()).toBe(401);
    await expectSignedOut(elsewhere.page);
    await elsewhere.context.close();

    // The new password works; the old one no longer does (asked after, so no failed attempt slows the sign-in).
    await page.getByLabel('Email').fill(customer.email);
    await page.getByLabel('Password').fill('brand-new-pass-42');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(nav(page).getByText(customer.email)).toBeVisible(hashing);
    const old = await request.post('/api/login', { data: { email: customer.email, password: customer.password } });
    expect(old.status()).toBe(401);

    // The link was single use: the page learns it when the new password is sent.
    await page.goto(link);
    await page.getByLabel('New Password', { exact: true }).fill('another-pass-99');
    await page.getByLabel('Confirm New Password').fill('another-pass-99');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByRole('alert')).toHaveText(INVALID_LINK, hashing);
    await page.getByRole('link', { name: 'Ask For A New Link' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
  });

  test('forgot password answers the same for an email with no account', async ({ page }) => {
    const nobody = uniqueEmail('nobody');
    await page.goto('/forgot-password');
    await page.getByLabel('Email').fill(nobody);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(
      page.getByText(
        'If an account exists for this email, we sent a link to reset its password. The link is valid for 1 hour.',
      ),
    ).toBeVisible();
    await page.waitForTimeout(1500);
    expect(mailTo(nobody)).toEqual([]);
  });

  test('a reset link without a token, or a made-up one, says so and offers a new one', async ({
    page,
    allowConsoleMessage,
  }) => {
    // The made-up link is refused: 400.
    allowConsoleMessage(httpErrorMessage(400, '/api/password/reset'));
    await page.goto('/reset-password');
    await expect(page.getByRole('alert')).toHaveText(INVALID_LINK);
    await expect(page.getByRole('link', { name: 'Ask For A New Link' })).toBeVisible();
    await expectAccessible(page);

    await page.goto('/login');
    await page.goto('/reset-password#token=made-up-token');
    await page.getByLabel('New Password', { exact: true }).fill('brand-new-pass-42');
    await page.getByLabel('Confirm New Password').fill('brand-new-pass-42');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByRole('alert')).toHaveText(INVALID_LINK);
  });

  test('change password on My Profile keeps this browser signed in and ends the others', async ({
    page,
    allowConsoleMessage,
    browser,
    request,
  }) => {
    // A wrong current password is refused (422), and the other browser's session ends (401).
    allowConsoleMessage(httpErrorMessage(422, '/api/password/change'));
    allowConsoleMessage(httpErrorMessage(401, ENDED_SESSION_READS));
    test.slow(); // several password hashes and mails
    const customer = await signUpViaApi(request, 'Cora Change');
    const elsewhere = await otherBrowser(browser, customer.token);
    await startSignedIn(page, customer.token);
    await page.goto('/dashboard/myprofile');
    const card = page.getByRole('form', { name: 'Change Password' });
    await expect(card).toBeVisible();

    await card.getByRole('button', { name: 'Change Password' }).click();
    await expect(card.getByText('Password Is Required').first()).toBeVisible();
    await card.getByLabel('Current Password').fill('not-my-password');
    await card.getByLabel('New Password', { exact: true }).fill('changed-pass-77');
    await card.getByLabel('Confirm New Password').fill('changed-pass-77');
    await card.getByRole('button', { name: 'Change Password' }).click();
    // The server's refusal shows under the field it is about.
    const current = card.getByLabel('Current Password');
    await expect(current).toHaveAttribute('aria-invalid', 'true', hashing);
    await expect(card.getByText('Your current password is not correct.')).toBeVisible();
    await expectAccessible(page);

    await current.fill(customer.password);
    await card.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText('Your password has been changed')).toBeVisible(hashing);
    await expect(card.getByLabel('Current Password')).toHaveValue('');

    // This browser holds a new session; the old token and the other browser are signed out.
    const token = await storedToken(page);
    expect(token).toBeTruthy();
    expect(token).not.toBe(customer.token);
    expect((await me(request, customer.token)).status()).toBe(401);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'My Profile', level: 1 })).toBeVisible();
    await expectSignedOut(elsewhere.page);
    await elsewhere.context.close();

    const login = await request.post('/api/login', { data: { email: customer.email, password: 'changed-pass-77' } });
    expect(login.status()).toBe(200);
  });

  test('Sign Out Everywhere asks first, then ends every session and says so on the login page', async ({
    page,
    allowConsoleMessage,
    browser,
    request,
  }) => {
    // The ended sessions' reads are refused: 401.
    allowConsoleMessage(httpErrorMessage(401, ENDED_SESSION_READS));
    const customer = await signUpViaApi(request, 'Eve Everywhere');
    const elsewhere = await otherBrowser(browser, customer.token);
    await startSignedIn(page, customer.token);
    await page.goto('/dashboard/myprofile');

    await page.getByRole('button', { name: 'Sign Out Everywhere' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out everywhere?' });
    await expect(dialog).toBeVisible();
    await expectAccessible(page);
    // Escape (or Cancel) changes nothing.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    expect((await me(request, customer.token)).status()).toBe(200);

    await page.getByRole('button', { name: 'Sign Out Everywhere' }).click();
    await dialog.getByRole('button', { name: 'Sign Out Everywhere' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('You have been signed out on every device. Please log in again.')).toBeVisible();
    await expect(nav(page).getByRole('link', { name: 'Login' })).toBeVisible();
    expect(await storedToken(page)).toBeNull();
    expect((await me(request, customer.token)).status()).toBe(401);
    await expectSignedOut(elsewhere.page);
    await elsewhere.context.close();
  });

  test('a #token= link to /auth/callback signs nobody in, and #error= shows only known messages', async ({
    page,
    request,
  }) => {
    const victim = await signUpViaApi(request, 'Tom Token');
    await page.goto(`/auth/callback#token=${victim.token}&returnTo=%2Fdashboard`);
    await expect(page.getByRole('heading', { name: 'Sign In With Google' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText('Google sign-in did not work. Please try again.');
    expect(page.url()).not.toContain('token');
    expect(await storedToken(page)).toBeNull();
    await expect(nav(page).getByRole('link', { name: 'Login' })).toBeVisible();
    await expectAccessible(page);

    // Free text in the URL is never shown (L4)… (each link opened from another page: a fragment-only change of
    // the same address would not load the page again)
    await page.goto('/login');
    await page.goto('/auth/callback#error=Your%20account%20is%20locked.%20Call%20555-0100');
    await expect(page.getByRole('alert')).toHaveText('Google sign-in did not work. Please try again.');
    await expect(page.getByText('555-0100')).toHaveCount(0);
    // …a known code shows its own sentence.
    await page.goto('/login');
    await page.goto('/auth/callback#error=cancelled');
    await expect(page.getByRole('alert')).toHaveText('Google sign-in was cancelled.');
    await page.getByRole('link', { name: 'Back to Login' }).click();
    await expect(page.getByRole('heading', { name: 'Please Login' })).toBeVisible();
  });

  test('a customer who opens an admin page is told why, and is not sent back there after logging in', async ({
    page,
    request,
  }) => {
    const customer = await signUpViaApi(request, 'Cass Customer');
    await startSignedIn(page, customer.token);
    await page.goto('/dashboard/users');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('That page is for administrators.')).toBeVisible();
    expect(await storedToken(page)).toBeNull();
    await expectAccessible(page);

    await logInOnPage(page, customer);
    await expect(nav(page).getByText(customer.email)).toBeVisible(hashing);
    await expect(page).toHaveURL(/\/$/);
    expect(await storedToken(page)).toBeTruthy();
  });

  test('an admin who logs in again from an admin page goes back to it', async ({ page, request }) => {
    const admin = await signInAdminViaApi(request);
    await page.goto('/dashboard/manageorder');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('That page is for administrators.')).toHaveCount(0);
    await logInOnPage(page, admin);
    await expect(page).toHaveURL(/\/dashboard\/manageorder$/, hashing);
  });
});

test('the new account pages fit a phone, a tablet and a desktop', async ({ page, request }) => {
  const customer = await signUpViaApi(request, 'Wanda Width');
  await startSignedIn(page, customer.token);
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  for (const width of [375, 768, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/forgot-password');
    await expect(page.getByRole('button', { name: 'Send Reset Link' })).toBeVisible();
    expect(await overflow(), `/forgot-password at ${width}px`).toBeLessThanOrEqual(0);

    await page.goto('/reset-password#token=layout-check');
    await expect(page.getByRole('button', { name: 'Set New Password' })).toBeVisible();
    expect(await overflow(), `/reset-password at ${width}px`).toBeLessThanOrEqual(0);

    await page.goto('/dashboard/myprofile');
    await expect(page.getByRole('button', { name: 'Sign Out Everywhere' })).toBeVisible();
    expect(await overflow(), `/dashboard/myprofile at ${width}px`).toBeLessThanOrEqual(0);
    if (width === 375) await expectAccessible(page);
  }
  // The banner and the security forms are reachable by keyboard alone.
  await page.getByLabel('Current Password').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('New Password', { exact: true })).toBeFocused();
});

test('the sign-up answer fits a phone, a tablet and a desktop', async ({ page }) => {
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  for (const width of [375, 768, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/register');
    await page.getByLabel('Name').fill('Wanda Width');
    await page.getByLabel('Email').fill(uniqueEmail(`width-${width}`));
    await page.getByLabel('Password').fill('ride-safe-123');
    await page.getByRole('button', { name: 'SignUp' }).click();
    await expect(page.getByRole('status')).toHaveText('Check your email to finish signing up', hashing);
    await expect(page.getByRole('status')).toBeFocused();
    expect(await overflow(), `/register at ${width}px`).toBeLessThanOrEqual(0);
    if (width === 375) await expectAccessible(page);
  }
});

test.describe('admin: jobs and admin rights', () => {
  let admin: E2eUser;
  test.beforeEach(async ({ request }) => {
    admin = await signInAdminViaApi(request);
  });

  test('the Jobs panel shows the queues, the mail outbox and the last failure, and refreshes', async ({ page }) => {
    await startSignedIn(page, admin.token);
    await page.goto('/dashboard');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Jobs' }).click();
    await expect(page).toHaveURL(/\/dashboard\/jobs$/);
    await expect(page.getByRole('heading', { name: 'Jobs', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Last Failure' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Mail Outbox' })).toBeVisible();
    const queues = page.getByRole('table', { name: 'Jobs per queue' });
    await expect(queues.getByRole('columnheader')).toHaveText(['Queue', 'Pending', 'Running', 'Failed']);
    await expect(queues.getByRole('row').nth(1)).toBeVisible();
    await expectAccessible(page);

    const refreshed = page.waitForResponse((response) => response.url().endsWith('/api/admin/jobs'));
    await page.getByRole('button', { name: 'Refresh' }).click();
    expect((await refreshed).status()).toBe(200);

    for (const width of [375, 768]) {
      await page.setViewportSize({ width, height: 800 });
      await expect(page.getByRole('heading', { name: 'Jobs', level: 1 })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `horizontal overflow at ${width}px`).toBeLessThanOrEqual(0);
    }
  });

  test('an admin removes admin rights from another admin, after confirming', async ({ page, request }) => {
    const other = await signUpViaApi(request, 'Ada Admin');
    const made = await request.put(`/api/user/admin/${other.email}`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(made.status()).toBe(200);

    await startSignedIn(page, admin.token);
    await page.goto('/dashboard/users');
    const row = page.getByRole('row').filter({ hasText: other.email });
    const mine = page.getByRole('row').filter({ hasText: admin.email });
    // Never on one's own row: the last admin cannot remove themselves out of the shop. (The seeded admin is the
    // oldest account, on the first page; the other admin is found by searching.)
    await expect(mine.getByText('Admin', { exact: true })).toBeVisible();
    await expect(mine.getByRole('button', { name: /Remove Admin/ })).toHaveCount(0);
    await page.goto(`/dashboard/users?q=${encodeURIComponent(other.email)}`);
    await expect(row.getByText('Admin', { exact: true })).toBeVisible();

    await row.getByRole('button', { name: `Remove Admin: ${other.email}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove admin rights?' });
    await expect(dialog).toContainText(other.email);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByText('Admin', { exact: true })).toBeVisible();

    await row.getByRole('button', { name: `Remove Admin: ${other.email}` }).click();
    await dialog.getByRole('button', { name: 'Remove Admin' }).click();
    await expect(page.getByText('Admin Rights Removed')).toBeVisible();
    await expect(row.getByRole('button', { name: `Make Admin: ${other.email}` })).toBeVisible();
    const check = await request.get(`/api/admin/${other.email}`, {
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(await check.json()).toEqual({ admin: false });
  });
});

test.describe('admin: the jobs panel when the server fails', () => {
  // The stubbed 503 below is logged by the browser; the page's handling of it is what is checked.
  test.use({ allowedConsoleErrors: [/status of 503/] });

  test('the Jobs panel says when it cannot load, and tries again', async ({ page, request }) => {
    await startSignedIn(page, (await signInAdminViaApi(request)).token);
    let fail = true;
    await page.route('**/api/admin/jobs', (route) =>
      fail
        ? route.fulfill({
            status: 503,
            json: { error: { code: 'unavailable', message: 'The shop is busy. Please try again.' } },
          })
        : route.continue(),
    );
    await page.goto('/dashboard/jobs');
    const error = page.getByRole('alert').filter({ hasText: 'Could not load the jobs.' });
    await expect(error).toBeVisible({ timeout: 20_000 });
    fail = false;
    await error.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('table', { name: 'Jobs per queue' })).toBeVisible();
  });
});

test('a login refused for too many attempts offers Forgot Password? in its message', async ({
  page,
  allowConsoleMessage,
}) => {
  // The stubbed refusal: 429.
  allowConsoleMessage(httpErrorMessage(429, '/api/login'));
  // Stubbed: really hammering the login would rate-limit this address for every other test running alongside.
  await page.route('**/api/login', (route) =>
    route.fulfill({
      status: 429,
      json: {
        error: {
          code: 'rate_limited',
          message: 'Too many attempts. Please try again in 5 minutes.',
          details: [{ resetPasswordPath: '/forgot-password' }],
        },
      },
    }),
  );
  await page.goto('/login');
  await page.getByLabel('Email').fill(uniqueEmail('hammered'));
  await page.getByLabel('Password').fill('some-password');
  await page.getByRole('button', { name: 'Login' }).click();
  const error = page.getByRole('alert').filter({ hasText: 'Too many attempts. Please try again in 5 minutes.' });
  await expect(error).toBeVisible();
  await expectAccessible(page);
  await error.getByRole('link', { name: 'Forgot Password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
});
