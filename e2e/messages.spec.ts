import type { APIRequestContext, Page } from '@playwright/test';
import { signInAdminViaApi, signUpViaApi, useToken } from './support/accounts.ts';
import { expect, expectAccessible, expectHydrated, httpErrorMessage, test, uniqueEmail } from './support/fixtures.ts';
import { addPartViaApi } from './support/parts.ts';

/** Messages a person reads: the sentence alone, under the field it is about; a part that is not there is no page. */

/** The app's not-found heading (spec §2). */
const notFoundText = 'OPPS! Page Not Found';

interface NewPart {
  _id: string;
  name: string;
}

async function addPart(request: APIRequestContext): Promise<NewPart & { adminToken: string }> {
  const admin = await signInAdminViaApi(request);
  const part = await addPartViaApi(request, admin.token, {
    name: `Lever ${Math.random().toString(36).slice(2, 8)}`,
    price: 25,
    availablequantity: 10,
  });
  return { ...part, adminToken: admin.token };
}

/** The parts list searched for the part's own name, hydrated: its Purchase link then opens the part in the app. */
async function listShowing(page: Page, part: NewPart) {
  await page.goto(`/allparts?${new URLSearchParams({ q: part.name })}`);
  await expectHydrated(page);
  const link = page.getByRole('link', { name: `Purchase ${part.name}` });
  await expect(link).toBeVisible();
  return link;
}

async function expectNotFoundPage(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: notFoundText })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to home' })).toBeVisible();
  // Asking again cannot make the part exist: no retry, and no internal words.
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText('params.');
}

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('a password the server refuses shows under the password field, in its own words', async ({
    page,
    allowConsoleMessage,
  }) => {
    // The server's refusal of the password.
    allowConsoleMessage(httpErrorMessage(400, '/api/signup'));
    await page.goto('/register');
    await expectHydrated(page);
    await page.getByLabel('Name').fill('Sam Sprocket');
    await page.getByLabel('Email').fill(uniqueEmail('common'));
    const password = page.getByLabel('Password');
    // Long enough for the form's own check; only the server knows it is one of the most common passwords.
    await password.fill('password1');
    await page.getByRole('button', { name: 'SignUp' }).click();

    const message = page.locator('#field-password-error');
    await expect(message).toHaveText('This Password Is Too Common');
    await expect(password).toHaveAttribute('aria-invalid', 'true');
    await expect(password).toHaveAttribute('aria-describedby', /field-password-error/);
    await expect(password).toBeFocused();
    // Said once, under its field: not again above the button, and never with the request's field path.
    await expect(page.getByRole('alert')).toHaveCount(1);
    await expect(page.getByRole('alert')).toHaveText('This Password Is Too Common');
    await expect(page.locator('body')).not.toContainText('(body.');
    await expectAccessible(page);

    // A better password is accepted: the message goes as soon as the field is fixed and sent.
    await password.fill('ride-safe-123');
    await page.getByRole('button', { name: 'SignUp' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Check your email' })).toBeVisible();
    await expect(page.getByText('This Password Is Too Common')).toHaveCount(0);
  });

  test('an unknown or malformed part id opens the not-found page, answered 404', async ({
    page,
    allowConsoleMessage,
  }) => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-part-id']) {
      // The page's own address and the app's request for the part are both answered "no such thing".
      allowConsoleMessage(httpErrorMessage(404, `/part/${id}`));
      allowConsoleMessage(httpErrorMessage(id === 'not-a-part-id' ? 400 : 404, `/api/part/${id}`));
      const response = await page.goto(`/part/${id}`);
      expect(response?.status(), id).toBe(404);
      await expectNotFoundPage(page);
      await expect(page).toHaveTitle('Page Not Found | Redline Parts');
    }
    await expectAccessible(page);
  });
});

test('an unknown or malformed order id on the payment page says the order does not exist, without Try again', async ({
  page,
  request,
  allowConsoleMessage,
}) => {
  const customer = await signUpViaApi(request);
  await useToken(page, customer.token);
  for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-order-id']) {
    allowConsoleMessage(httpErrorMessage(id === 'not-an-order-id' ? 400 : 404, `/api/myorder/${id}`));
    await page.goto(`/dashboard/payment/${id}`);
    await expectHydrated(page);
    await expect(page.getByText('This order does not exist.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    await expect(page.locator('body')).not.toContainText('params.');
  }
});

test('a part removed while the list was open opens the not-found page in the app', async ({
  page,
  request,
  allowConsoleMessage,
}) => {
  const part = await addPart(request);
  allowConsoleMessage(httpErrorMessage(404, `/api/part/${part._id}`));
  const link = await listShowing(page, part);
  const removed = await request.delete(`/api/part/${part._id}`, {
    headers: { authorization: `Bearer ${part.adminToken}` },
  });
  expect(removed.ok()).toBe(true);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/part/${part._id}$`));
  await expectNotFoundPage(page);
});

test.describe('an outage', () => {
  test.use({ allowedConsoleErrors: [/status of 503/] });

  test('still offers to try again, and trying again shows the part', async ({ page, request }) => {
    const part = await addPart(request);
    const link = await listShowing(page, part);
    let down = true;
    await page.route(
      (url) => url.pathname === `/api/part/${part._id}`,
      (route) =>
        down
          ? route.fulfill({
              status: 503,
              json: { error: { code: 'service_unavailable', message: 'The shop is briefly unavailable.' } },
            })
          : route.continue(),
    );
    await link.click();
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load this part' });
    // The app asks twice more before it gives up on an outage.
    await expect(alert).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('heading', { name: notFoundText })).toHaveCount(0);
    down = false;
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Purchase ${part.name}` })).toBeVisible();
  });
});
