import type { Page } from '@playwright/test';
import { finishSignUpFromMail, signInAdminViaApi, signUpViaApi, useToken } from './support/accounts.ts';
import { ADMIN_DASHBOARD_ENTRIES } from './support/constants.ts';
import { expect, expectAccessible, httpErrorMessage, test, uniqueEmail } from './support/fixtures.ts';
import { waitForMail } from './support/mailbox.ts';

const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('accessToken'));
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const dashboardMenu = (page: Page) => page.getByRole('navigation', { name: 'Dashboard' });

test.describe('accounts', () => {
  test('sign up, log out, and log in again to land back on the page that asked for it', async ({
    page,
    allowConsoleMessage,
  }) => {
    allowConsoleMessage(httpErrorMessage(401, '/api/login'));
    const email = uniqueEmail('signup');
    await page.goto('/register');
    await expect(page.getByRole('heading', { name: 'Please Sign Up' })).toBeVisible();
    await page.getByLabel('Name').fill('Sam Sprocket');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('ride-safe-123');
    await page.getByRole('button', { name: 'SignUp' }).click();
    // Nobody is signed in until the mailed link is opened: the page says so, and its answer has the focus.
    const sent = page.getByRole('status').filter({ hasText: 'Check your email to finish signing up' });
    await expect(sent).toBeFocused();
    expect(await storedToken(page)).toBeNull();
    await expectAccessible(page);
    await finishSignUpFromMail(page, email);

    await expect(page).toHaveURL(/\/$/);
    await expect(nav(page).getByText(email)).toBeVisible();
    await expect(nav(page).getByRole('link', { name: 'Dashboard' })).toBeVisible();
    expect(await storedToken(page)).toBeTruthy();

    await nav(page).getByRole('button', { name: 'Log Out' }).click();
    await expect(nav(page).getByRole('link', { name: 'Login' })).toBeVisible();
    expect(await storedToken(page)).toBeNull();

    // In the app, without a reload: visitors browse the parts (spec §1), and Place Order asks to log in.
    await nav(page).getByRole('link', { name: 'Parts', exact: true }).click();
    await expect(page).toHaveURL(/\/allparts$/);
    await page
      .getByRole('link', { name: /^Purchase / })
      .first()
      .click();
    await expect(page).toHaveURL(/\/part\/[0-9a-f-]+$/);
    const partPath = new URL(page.url()).pathname;
    await page.getByRole('button', { name: 'Place Order' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Please Login' })).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Login' }).click();
    const error = page.getByRole('alert').filter({ hasText: 'Wrong email or password.' });
    await expect(error).toBeVisible();
    await expect(error).toHaveClass(/text-danger/);

    await page.getByLabel('Password').fill('ride-safe-123');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(new RegExp(`${partPath}$`));
    await expect(page.getByRole('heading', { name: /^Purchase /, level: 1 })).toBeVisible();
  });

  test('shows the spec’s validation messages exactly', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByText('Email Is Required')).toBeVisible();
    await expect(page.getByText('Password Is Required')).toBeVisible();
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password').fill('12345');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByText('Provide A Valid Email')).toBeVisible();
    await expect(page.getByText('Must Be 6 Characters Or Longer')).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('link', { name: 'Creat New Account' }).click();
    await expect(page).toHaveURL(/\/register$/);
    await page.getByRole('button', { name: 'SignUp' }).click();
    await expect(page.getByText('Name Is Required')).toBeVisible();
    await expect(page.getByText('Email Is Required')).toBeVisible();
    await expect(page.getByText('Password Is Required')).toBeVisible();
    // Any 2–63 letter ending is valid (`.comx` too); an address with no ending is not.
    await page.getByLabel('Email').fill('rider@example');
    await page.getByRole('button', { name: 'SignUp' }).click();
    await expect(page.getByText('Provide A Valid Email')).toBeVisible();
    await expectAccessible(page);
  });

  test('a sign-up with a taken email answers as any other; the owner is mailed instead', async ({ page, request }) => {
    const existing = await signUpViaApi(request);
    await page.goto('/register');
    await page.getByLabel('Name').fill('Copy Cat');
    await page.getByLabel('Email').fill(existing.email.toUpperCase());
    await page.getByLabel('Password').fill('ride-safe-123');
    await page.getByRole('button', { name: 'SignUp' }).click();
    await expect(page.getByRole('status')).toHaveText('Check your email to finish signing up');
    const mail = await waitForMail(existing.email, { subject: /tried to sign up/i });
    expect(mail.text).toContain('/forgot-password');
    expect(await storedToken(page)).toBeNull();
  });

  test('the sign-up link brings a visitor back to the page that sent them to sign up', async ({ page }) => {
    const email = uniqueEmail('return');
    await page.goto('/allparts');
    await page
      .getByRole('link', { name: /^Purchase / })
      .first()
      .click();
    await expect(page).toHaveURL(/\/part\/[0-9a-f-]+$/);
    const partPath = new URL(page.url()).pathname;
    await page.getByRole('button', { name: 'Place Order' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.getByRole('link', { name: 'Creat New Account' }).click();
    await page.getByLabel('Name').fill('Ret Urner');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('ride-safe-123');
    await page.getByRole('button', { name: 'SignUp' }).click();
    await finishSignUpFromMail(page, email);
    await expect(page).toHaveURL(new RegExp(`${partPath}$`));
    await expect(nav(page).getByText(email)).toBeVisible();
  });

  test('Google sign-in says it is not configured instead of failing', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByText('Google sign-in is not configured on this shop.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign In With Google' })).toBeDisabled();
  });

  test('a customer sees their menu, and is signed out when they open an admin page', async ({
    page,
    request,
    allowConsoleMessage,
  }) => {
    allowConsoleMessage(httpErrorMessage(404, '/dashboard/nothing-here'));
    const customer = await signUpViaApi(request);
    await useToken(page, customer.token);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/dashboard\/myorder$/);
    const menu = dashboardMenu(page);
    await expect(menu.getByRole('link')).toHaveText(['My Order', 'Add Review', 'My Profile', 'My Garage']);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectAccessible(page);

    await page.goto('/dashboard/nothing-here');
    await expect(page.getByText('OPPS! Page Not Found')).toBeVisible();

    await page.goto('/dashboard/users');
    await expect(page).toHaveURL(/\/login$/);
    expect(await storedToken(page)).toBeNull();
    await expect(nav(page).getByRole('link', { name: 'Login' })).toBeVisible();
    // The token was revoked on the server too.
    const me = await request.get('/api/me', { headers: { authorization: `Bearer ${customer.token}` } });
    expect(me.status()).toBe(401);
  });

  test('an admin makes a customer an admin', async ({ page, request }) => {
    const customer = await signUpViaApi(request, 'Future Admin');
    const admin = await signInAdminViaApi(request);
    await useToken(page, admin.token);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/dashboard\/myprofile$/);
    await expect(dashboardMenu(page).getByRole('link')).toHaveText([...ADMIN_DASHBOARD_ENTRIES]);
    await dashboardMenu(page).getByRole('link', { name: 'Users' }).click();
    await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
    // The seeded admin is the oldest account (the first page); the new customer is found by searching.
    await expect(
      page.getByRole('row').filter({ hasText: admin.email }).getByText('Admin', { exact: true }),
    ).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search by name or email' }).fill(customer.email);
    await page.keyboard.press('Enter');
    const row = page.getByRole('row').filter({ hasText: customer.email });
    await expect(row.getByRole('button', { name: /Make Admin/ })).toBeVisible();
    await expectAccessible(page);

    await row.getByRole('button', { name: /Make Admin/ }).click();
    await expect(page.getByText('Successfully Made An Admin')).toBeVisible();
    await expect(row.getByText('Admin', { exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: /Make Admin/ })).toHaveCount(0);
    const check = await request.get(`/api/admin/${customer.email}`, {
      headers: { authorization: `Bearer ${customer.token}` },
    });
    expect(await check.json()).toEqual({ admin: true });
  });

  test('profile is saved and shown again after a reload', async ({ page, request, baseURL }) => {
    const customer = await signUpViaApi(request, 'Pro File');
    await useToken(page, customer.token);
    await page.goto('/dashboard/myprofile');
    await expect(page.getByRole('heading', { name: 'My Profile', level: 1 })).toBeVisible();
    await expect(page.getByText(customer.email).first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Pro File' })).toBeVisible();
    await expectAccessible(page);

    await page.getByLabel('Photo URL').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Add Item' }).click();
    await expect(page.getByText('Provide A Valid http(s) Link')).toBeVisible();

    await page.getByLabel('Education').fill('Diploma in Motorcycle Mechanics');
    await page.getByLabel('Phone Number').fill('+1 555 0199');
    await page.getByLabel('Photo URL').fill(`${baseURL}/images/logo.svg`);
    await page.getByLabel('LinkedIn Profile URL').fill('https://www.linkedin.com/in/pro-file');
    await page.getByRole('button', { name: 'Add Item' }).click();
    await expect(page.getByText('Information Added Successfully')).toBeVisible();

    await page.reload();
    await expect(page.getByLabel('Education')).toHaveValue('Diploma in Motorcycle Mechanics');
    await expect(page.getByLabel('Phone Number')).toHaveValue('+1 555 0199');
    await expect(page.getByRole('link', { name: 'https://www.linkedin.com/in/pro-file' })).toBeVisible();
    await expect(page.getByText('Diploma in Motorcycle Mechanics', { exact: true })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Pro File' })).toBeVisible();
  });

  test('a session that ends while in use sends to /login and back after signing in', async ({
    page,
    request,
    allowConsoleMessage,
  }) => {
    // The ended session's reads are refused (401): the page's own, or the garage's, whichever comes first.
    allowConsoleMessage(httpErrorMessage(401, /\/api\/(me|garage|profile)/));
    const customer = await signUpViaApi(request);
    await useToken(page, customer.token);
    await page.goto('/dashboard/myprofile');
    await expect(page.getByRole('heading', { name: 'My Profile', level: 1 })).toBeVisible();
    // The page's own reads first (the garage's comes last): one answered 401 after the revocation would send the
    // page to /login before the click below, and the click would wait for a button that is gone (seen in CI).
    await page.waitForLoadState('networkidle');
    // The session is revoked elsewhere (another tab logged out).
    await request.post('/api/logout', { headers: { authorization: `Bearer ${customer.token}` } });
    await page.getByRole('button', { name: 'Add Item' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Your session has ended. Please log in again.')).toBeVisible();
    await page.getByLabel('Email').fill(customer.email);
    await page.getByLabel('Password').fill(customer.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/dashboard\/myprofile$/);
  });

  test.describe(() => {
    // The 503s below are the test's own: the browser logs each.
    test.use({ allowedConsoleErrors: [/status of 503 \(Service Unavailable\)/] });
    test('a sign-in the page could not check yet (the visitor went on, the shop was busy) is kept', async ({
      page,
      request,
    }) => {
      const user = await signUpViaApi(request, 'Quick Clicker');
      await useToken(page, user.token);
      // The shop is slow to say who this is, then busy: the visitor moves on before it answers.
      let busy = true;
      await page.route('**/api/me', async (route) => {
        if (!busy) return route.continue();
        await new Promise((resolve) => setTimeout(resolve, 500));
        return route.fulfill({ status: 503, headers: { 'retry-after': '1' }, json: { error: 'service_unavailable' } });
      });
      await page.goto('/blog');
      await page.goto('/myprotfolio');
      await expect.poll(() => storedToken(page)).toBe(user.token);
      // It asks again, and once the shop answers the visitor is signed in without doing anything.
      busy = false;
      await expect(nav(page).getByRole('link', { name: 'Dashboard' })).toBeVisible();
      expect(await storedToken(page)).toBe(user.token);
    });
  });

  test('works at phone width: menu and log out are reachable', async ({ page, request }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    const customer = await signUpViaApi(request);
    await useToken(page, customer.token);
    await page.goto('/dashboard/myorder');
    const menu = dashboardMenu(page);
    // On a phone the dashboard's menu opens from its button.
    await menu.getByRole('button', { name: /Dashboard menu/ }).click();
    await menu.getByRole('link', { name: 'My Profile' }).click();
    await expect(page).toHaveURL(/\/dashboard\/myprofile$/);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page);

    const toggle = page.getByRole('button', { name: 'Toggle navigation' });
    await toggle.click();
    // The menu opens with a 0.35 s height transition: press Log Out once it is open (a click mid-way was lost once).
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.locator('.navbar-collapse.show')).toBeVisible();
    const logOut = page.waitForResponse((res) => res.url().endsWith('/api/logout'));
    await nav(page).getByRole('button', { name: 'Log Out' }).click();
    await logOut;
    await expect(page).toHaveURL(/\/$/);
    expect(await storedToken(page)).toBeNull();

    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    const loginOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(loginOverflow).toBeLessThanOrEqual(0);
  });
});
