import type { APIRequestContext, Page } from '@playwright/test';
import { type E2eUser, signInAdminViaApi, signUpViaApi, useToken } from './support/accounts.ts';
import { expect, expectAccessible, test } from './support/fixtures.ts';
import { mailTo, waitForMail } from './support/mailbox.ts';
import { addPartViaApi } from './support/parts.ts';
import { payViaApi } from './support/payments.ts';

/**
 * Fulfilment: the admin opens a paid order, ships it with a carrier and tracking number, the customer sees
 * the tracking number and gets the mail; an admin refunds another paid order and its stock returns. At 375 and 1280
 * px, and Manage Orders at 768 px (a tablet: every column on screen).
 */

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A part of the test's own (so its stock is the test's to count) and a paid order of it, through the real API. */
async function paidOrder(request: APIRequestContext, admin: E2eUser, customer: E2eUser, quantity = 2) {
  const { _id: partId, name } = await addPartViaApi(request, admin.token);
  const order = await request.post('/api/myorder', {
    headers: bearer(customer.token),
    data: { partId, quantity, address: '9 Apex Lane, Leeds', phone: '+44 113 496 0000' },
  });
  if (!order.ok()) throw new Error(`ordering failed: ${order.status()} ${await order.text()}`);
  const { _id: orderId } = (await order.json()) as { _id: string };
  await payViaApi(request, customer.token, orderId);
  return { partId, orderId, name };
}

async function stockOf(request: APIRequestContext, partId: string): Promise<number> {
  const res = await request.get(`/api/part/${partId}`);
  return ((await res.json()) as { availablequantity: number }).availablequantity;
}

/** The same tab, another account: the app reads the stored token when the page loads. */
async function switchTo(page: Page, user: E2eUser) {
  await page.evaluate((token) => localStorage.setItem('accessToken', token), user.token);
}

/** Manage Orders narrowed to one customer through the search box, and that order's row (or card). */
async function findInManageOrders(page: Page, customer: E2eUser, partName: string) {
  await page.goto('/dashboard/manageorder');
  await page.getByLabel('Search customer or part').fill(customer.email);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const row = page.getByRole('row').filter({ hasText: partName });
  await expect(row).toBeVisible();
  return row;
}

for (const width of [375, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the admin ships an order with a tracking number; the customer sees it and gets the mail', async ({
      page,
      request,
    }) => {
      const admin = await signInAdminViaApi(request);
      const customer = await signUpViaApi(request, 'Tracy Tracker');
      const { orderId, name } = await paidOrder(request, admin, customer);
      const tracking = `1Z${Math.random().toString(36).slice(2, 10).toUpperCase()}`;

      await useToken(page, admin.token);
      const row = await findInManageOrders(page, customer, name);
      await expect(row.getByText('pending to shipped')).toBeVisible();
      await expectAccessible(page);
      await row.getByRole('link', { name: /^Details/ }).click();
      await expect(page).toHaveURL(new RegExp(`/dashboard/order/${orderId}$`));
      await expect(page.getByRole('heading', { name: /^Order #/ })).toBeVisible();
      await expect(page.getByText('9 Apex Lane, Leeds')).toBeVisible();
      await expect(page.getByText('+44 113 496 0000')).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Timeline' })).toBeVisible();
      await expectAccessible(page);

      await page.getByRole('button', { name: /^Ship / }).click();
      const dialog = page.getByRole('dialog');
      // Nothing is shipped without a carrier and a tracking number.
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await expect(dialog.getByText('Carrier Is Required')).toBeVisible();
      await dialog.getByLabel('Carrier').fill('UPS');
      await dialog.getByLabel('Tracking Number').fill(tracking);
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await expect(dialog.getByRole('heading', { name: 'Confirm Ship' })).toBeVisible();
      await expect(dialog.getByText(tracking)).toBeVisible();
      await expectAccessible(page);
      await dialog.getByRole('button', { name: 'Confirm Ship' }).click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(page.getByText('Shipped', { exact: true }).first()).toBeVisible();
      await expect(page.getByRole('button', { name: /^Mark Delivered/ })).toBeVisible();

      // The customer: the tracking number in My Order, on the order page, and in the mail.
      await switchTo(page, customer);
      await page.goto('/dashboard/myorder');
      const mine = page.getByRole('row').filter({ hasText: name });
      await expect(mine.getByText(tracking)).toBeVisible();
      await expect(mine.getByText('Shipped', { exact: true })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await mine.getByRole('link', { name: /^Details/ }).click();
      await expect(page.getByText(tracking)).toBeVisible();
      await expect(page.getByText('UPS', { exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: /^Ship / })).toHaveCount(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectAccessible(page);
      const mail = await waitForMail(customer.email, { subject: /has shipped/ });
      expect(mail.text).toContain(tracking);
      expect(mail.text).toContain('UPS');
      expect(mailTo(customer.email, /Receipt/)).toHaveLength(1);
    });

    test('an admin refunds a paid order and its stock returns', async ({ page, request }) => {
      const admin = await signInAdminViaApi(request);
      const customer = await signUpViaApi(request, 'Rene Refund');
      const { partId, name } = await paidOrder(request, admin, customer, 3);
      expect(await stockOf(request, partId)).toBe(37);

      await useToken(page, admin.token);
      const row = await findInManageOrders(page, customer, name);
      await row.getByRole('button', { name: /^Refund / }).click();
      const dialog = page.getByRole('dialog', { name: 'Refund This Order?' });
      await expect(dialog).toContainText('$105.00');
      await dialog.getByRole('button', { name: 'Refund' }).click();
      await expect(row.getByText('Refunded', { exact: true })).toBeVisible();
      await expect(row.getByRole('button', { name: /^Refund / })).toHaveCount(0);
      expect(await stockOf(request, partId)).toBe(40);
      await waitForMail(customer.email, { subject: /Refund of \$105\.00/ });
    });
  });
}

test.describe('on a 768 px tablet', () => {
  test.use({ viewport: { width: 768, height: 1024 } });

  test('Manage Orders and My Order keep every column on screen', async ({ page, request }) => {
    const admin = await signInAdminViaApi(request);
    const customer = await signUpViaApi(request, 'Tabby Tablet');
    const { name } = await paidOrder(request, admin, customer);

    await useToken(page, admin.token);
    const row = await findInManageOrders(page, customer, name);
    for (const label of [/^Delete order/, /^Ship /, /^Refund /]) {
      await row.getByRole('button', { name: label }).scrollIntoViewIfNeeded();
      await expect(row.getByRole('button', { name: label })).toBeInViewport();
    }
    await expect(row.getByText('pending to shipped')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(768);
    await expectAccessible(page);

    await switchTo(page, customer);
    await page.goto('/dashboard/myorder');
    const mine = page.getByRole('row').filter({ hasText: name });
    await expect(mine.getByRole('button', { name: /^Delete order/ })).toBeDisabled();
    await expect(mine.getByText('Paid', { exact: true })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(768);
  });
});

// Manage Orders keeps its filter and page in the URL and pages by the API's cursors.
test.describe('Manage Orders paging at 375 px', () => {
  test.use({ viewport: { width: 375, height: 900 } });

  test('pages by cursor with Next and Previous; the URL keeps search and page, and Back works', async ({
    page,
    request,
  }) => {
    const admin = await signInAdminViaApi(request);
    const customer = await signUpViaApi(request, 'Paige Pager');
    const part = await request.post('/api/part', {
      headers: bearer(admin.token),
      data: {
        name: `Pager ${Math.random().toString(36).slice(2, 8)}`,
        desription: 'A part ordered many times.',
        img: '/images/parts/brake-disc.svg',
        price: 3,
        availablequantity: 100,
        minimunorder: 1,
      },
    });
    expect(part.ok(), await part.text()).toBe(true);
    const { _id: partId } = (await part.json()) as { _id: string };
    for (let n = 0; n < 27; n++) {
      const order = await request.post('/api/myorder', {
        headers: bearer(customer.token),
        data: { partId, quantity: 1, address: '1 Page Street, York', phone: '+44 1904 000000' },
      });
      expect(order.ok(), await order.text()).toBe(true);
    }

    // Someone else's order too, so the unfiltered list (shown until the search's answer is in) never reads "of 27".
    const other = await signUpViaApi(request, 'Otto Other');
    const otherOrder = await request.post('/api/myorder', {
      headers: bearer(other.token),
      data: { partId, quantity: 1, address: '2 Page Street, York', phone: '+44 1904 000001' },
    });
    expect(otherOrder.ok(), await otherOrder.text()).toBe(true);

    await useToken(page, admin.token);
    await page.goto('/dashboard/manageorder');
    await page.getByLabel('Search customer or part').fill(customer.email);
    // Until the search's own answer is in, the previous list stays on screen (and Next would page it by offset).
    const searched = page.waitForResponse((res) => res.url().includes('/api/allorder?') && res.url().includes('q='));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await searched;
    await expect(page).toHaveURL(/\/dashboard\/manageorder\?q=/);
    await expect(page.getByText('1–25 of 27')).toBeVisible();
    const pages = page.getByRole('navigation', { name: 'Order pages' });
    await pages.getByRole('button', { name: 'Next' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/page=2&after=[A-Za-z0-9_-]+$/);
    await expect(page.getByText('26–27 of 27')).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: customer.email })).toHaveCount(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await pages.getByRole('button', { name: 'Previous' }).click();
    await expect(page.getByText('1–25 of 27')).toBeVisible();
    await page.goBack();
    await expect(page.getByText('26–27 of 27')).toBeVisible();
    await expect(page.getByLabel('Search customer or part')).toHaveValue(customer.email);
    await expectAccessible(page);
  });
});
