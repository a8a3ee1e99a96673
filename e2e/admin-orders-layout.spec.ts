import type { APIRequestContext, Page } from '@playwright/test';
import { type E2eUser, signInAdminViaApi, signUpLink, useToken } from './support/accounts.ts';
import { expect, expectAccessible, test } from './support/fixtures.ts';
import { addPartViaApi } from './support/parts.ts';
import { payViaApi } from './support/payments.ts';

/*
 * Manage Orders: compact rows on a desktop, however long the customer's email, each with the day and time it was
 * placed; a stacked card per order on a phone and a tablet, with the order's actions on screen.
 */

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A customer with a long email (as some are), signed up through the real API and its mail. */
async function longEmailCustomer(request: APIRequestContext): Promise<E2eUser> {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const email = `casey.rider.longmailboxname.${tag}@motorcycle-workshop-supplies.example.com`;
  const password = 'ride-safe-123';
  const res = await request.post('/api/signup', { data: { name: 'Casey Rider', email, password } });
  if (res.status() !== 202) throw new Error(`sign-up failed: ${res.status()} ${await res.text()}`);
  const token = new URLSearchParams((await signUpLink(email)).split('#')[1] ?? '').get('token');
  const verified = await request.post('/api/email/verify', { data: { token } });
  if (!verified.ok()) throw new Error(`sign-up link refused: ${verified.status()} ${await verified.text()}`);
  return { email, password, name: 'Casey Rider', token: ((await verified.json()) as { token: string }).token };
}

/** Two orders of a part of the test's own by that customer: one left unpaid, one paid (so it can be shipped). */
async function ordersOf(request: APIRequestContext, admin: E2eUser, customer: E2eUser) {
  const { _id: partId, name } = await addPartViaApi(request, admin.token);
  const place = async (quantity: number) => {
    const order = await request.post('/api/myorder', {
      headers: bearer(customer.token),
      data: { partId, quantity, address: '9 Apex Lane, Leeds', phone: '+44 113 496 0000' },
    });
    if (!order.ok()) throw new Error(`ordering failed: ${order.status()} ${await order.text()}`);
    return ((await order.json()) as { _id: string })._id;
  };
  await place(1);
  const orderId = await place(2);
  await payViaApi(request, customer.token, orderId);
  return name;
}

/** Manage Orders narrowed to the customer, and its two rows: the unpaid order and the paid one. */
async function customerRows(page: Page, customer: E2eUser, partName: string) {
  await page.goto(`/dashboard/manageorder?q=${encodeURIComponent(customer.email)}`);
  const rows = page.getByRole('row').filter({ hasText: partName });
  await expect(rows).toHaveCount(2);
  return {
    unpaid: rows.filter({ hasText: '1 PCS' }),
    paid: rows.filter({ hasText: '2 PCS' }),
  };
}

/** The time of day, as the shop writes it (en-US: '3:05 PM'). */
const TIME = /\b\d{1,2}:\d{2}\s?[AP]M\b/;

async function expectNoSidewaysScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test.describe('Manage Orders at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('rows stay compact with a long email, and say the day and time of the order', async ({ page, request }) => {
    const admin = await signInAdminViaApi(request);
    const customer = await longEmailCustomer(request);
    const partName = await ordersOf(request, admin, customer);
    await useToken(page, admin.token);
    const { unpaid, paid } = await customerRows(page, customer, partName);
    for (const row of [unpaid, paid]) {
      const box = await row.boundingBox();
      expect(box?.height, 'the row’s height').toBeLessThan(60);
      // The whole email stays in the page (read out, and shown on hover) though only two lines of it are seen.
      const email = row.locator('td[data-label="Email"] [title]');
      await expect(email).toHaveText(customer.email);
      await expect(email).toHaveAttribute('title', customer.email);
      const placed = row.locator('td[data-label="Order"] time');
      await expect(placed).toHaveText(TIME);
      await expect(placed).toHaveText(new RegExp(String(new Date().getFullYear())));
    }
    await expect(paid.getByRole('button', { name: /^Ship / })).toBeInViewport();
    await expect(paid.getByRole('button', { name: /^Refund / })).toBeInViewport();
    await expect(unpaid.getByRole('button', { name: /^Delete order/ })).toBeInViewport();
    await expectNoSidewaysScroll(page, 1280);
    await expectAccessible(page);
    await paid.getByRole('link', { name: /^Details/ }).click();
    await expect(page.getByRole('heading', { name: /^Order #/ })).toBeVisible();
  });
});

for (const viewport of [
  { width: 375, height: 800 },
  { width: 768, height: 1024 },
]) {
  test.describe(`Manage Orders at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('each order is a card with the whole email, the time and its actions on screen', async ({ page, request }) => {
      const admin = await signInAdminViaApi(request);
      const customer = await longEmailCustomer(request);
      const partName = await ordersOf(request, admin, customer);
      await useToken(page, admin.token);
      const { unpaid, paid } = await customerRows(page, customer, partName);
      await expect(paid.locator('td[data-label="Order"] time')).toHaveText(TIME);
      // All of the email, none of it cut off.
      const email = paid.locator('td[data-label="Email"] [title]');
      await expect(email).toBeVisible();
      await expect(email).toHaveText(customer.email);
      expect(await email.evaluate((element) => element.scrollHeight - element.clientHeight)).toBeLessThanOrEqual(0);
      for (const [row, label] of [
        [paid, /^Ship /],
        [paid, /^Refund /],
        [unpaid, /^Delete order/],
      ] as const) {
        const button = row.getByRole('button', { name: label });
        await button.scrollIntoViewIfNeeded();
        await expect(button).toBeInViewport();
      }
      await expectNoSidewaysScroll(page, viewport.width);
    });
  });
}
