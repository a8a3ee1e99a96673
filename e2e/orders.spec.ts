import type { APIRequestContext, Page } from '@playwright/test';
import { signInAdminViaApi, signUpViaApi, useToken } from './support/accounts.ts';
import { expect, expectAccessible, httpErrorMessage, test } from './support/fixtures.ts';

interface NewPart {
  _id: string;
  name: string;
}

/** Each test adds its own part through the admin API, so stock and minimum are known and unshared. */
async function addPart(
  request: APIRequestContext,
  values: { price: number; availablequantity: number; minimunorder: number },
): Promise<NewPart> {
  const admin = await signInAdminViaApi(request);
  const res = await request.post('/api/part', {
    headers: { authorization: `Bearer ${admin.token}` },
    data: {
      name: `Clutch ${Math.random().toString(36).slice(2, 8)}`,
      desription: 'Sintered clutch plate set for browser tests.',
      img: '/images/parts/brake-pads.svg',
      ...values,
    },
  });
  if (!res.ok()) throw new Error(`adding a part failed: ${res.status()} ${await res.text()}`);
  return (await res.json()) as NewPart;
}

async function orderViaApi(request: APIRequestContext, token: string, partId: string, quantity: number) {
  const res = await request.post('/api/myorder', {
    headers: { authorization: `Bearer ${token}` },
    data: { partId, quantity, address: '1 Pit Lane', phone: '555 0100' },
  });
  if (!res.ok()) throw new Error(`ordering failed: ${res.status()} ${await res.text()}`);
  return (await res.json()) as { _id: string };
}

const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text, { exact: true });

test('a customer is told the real minimum, Stock Out, and then places an order', async ({
  page,
  request,
  allowConsoleMessage,
}) => {
  // The orders the server refuses (Stock Out) answer 422.
  allowConsoleMessage(httpErrorMessage(422, '/api/myorder'));
  const part = await addPart(request, { price: 12.5, availablequantity: 10, minimunorder: 3 });
  const customer = await signUpViaApi(request, 'Casey Rider');
  await useToken(page, customer.token);
  await page.goto(`/part/${part._id}`);

  await expect(page.getByRole('heading', { name: `Purchase ${part.name}` })).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Casey Rider');
  await expect(page.getByLabel('Name', { exact: true })).toBeDisabled();
  await expect(page.getByLabel('Email')).toHaveValue(customer.email);
  await expect(page.getByLabel('Email')).toBeDisabled();
  await expect(page.getByLabel('Phone Number')).toHaveAttribute('type', 'tel');
  const quantity = page.getByPlaceholder('Add Quantity');
  await expect(quantity).toHaveValue('3');
  await expect(page.getByText('Total Price: $37.50')).toBeVisible();
  await expectAccessible(page);

  // Below the minimum there is no total to show: the order rule refuses the quantity.
  await quantity.fill('2');
  await expect(page.getByText(/^Total Price:/)).not.toContainText('$');
  await page.getByRole('button', { name: 'Place Order' }).click();
  await expect(toast(page, 'Order At Least 3 PCS')).toBeVisible();

  await quantity.fill('11');
  await expect(page.getByText(/^Total Price:/)).not.toContainText('$');
  await page.getByRole('button', { name: 'Place Order' }).click();
  await expect(toast(page, 'Stock Out')).toBeVisible();

  await quantity.fill('10');
  await page.getByLabel('Address').fill('7 Chicane Road, Monza');
  await page.getByLabel('Phone Number').fill('+39 555 0199');
  await expect(page.getByText('Total Price: $125.00')).toBeVisible();
  await page.getByRole('button', { name: 'Place Order' }).click();
  // One customer may hold at most half the stock in unpaid orders (never below the minimum).
  await expect(toast(page, 'You Can Hold At Most 5 Unpaid PCS Of This Part')).toBeVisible();
  await quantity.fill('5');
  await expect(page.getByText('Total Price: $62.50')).toBeVisible();
  await page.getByRole('button', { name: 'Place Order' }).click();
  await expect(toast(page, 'Your Order Has Been Placed')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to My Order to pay' })).toBeVisible();
  await expect(page.getByText('Available Quantity: 5 PCS')).toBeVisible();

  const mine = await request.get('/api/myorder', { headers: { authorization: `Bearer ${customer.token}` } });
  const orders = (await mine.json()) as { quantity: number; address: string; phone: string; total: number }[];
  expect(orders).toEqual([
    expect.objectContaining({ quantity: 5, address: '7 Chicane Road, Monza', phone: '+39 555 0199', total: 62.5 }),
  ]);

  await page.getByRole('link', { name: 'Go to My Order to pay' }).click();
  await expect(page).toHaveURL(/\/dashboard\/myorder$/);
});

test('the server’s answer is shown when the stock went while the page was open', async ({
  page,
  request,
  allowConsoleMessage,
}) => {
  allowConsoleMessage(httpErrorMessage(422, '/api/myorder'));
  const part = await addPart(request, { price: 5, availablequantity: 4, minimunorder: 1 });
  const customer = await signUpViaApi(request);
  const rival = await signUpViaApi(request, 'Quick Rival');
  await useToken(page, customer.token);
  await page.goto(`/part/${part._id}`);
  await expect(page.getByText('Available Quantity: 4 PCS')).toBeVisible();
  // The rival takes half (the most one customer may hold unpaid): 2 left, the page still says 4.
  await orderViaApi(request, rival.token, part._id, 2);

  await page.getByPlaceholder('Add Quantity').fill('3');
  await page.getByRole('button', { name: 'Place Order' }).click();
  await expect(toast(page, 'Stock Out')).toBeVisible();
  await expect(page.getByText('Your Order Has Been Placed')).toHaveCount(0);
});

test('an unknown part says so clearly', async ({ page, request, allowConsoleMessage }) => {
  const unknown = '00000000-0000-4000-8000-000000000000';
  // The page's address and the API's answer about the part are both 404.
  allowConsoleMessage(httpErrorMessage(404, `/part/${unknown}`));
  allowConsoleMessage(httpErrorMessage(404, `/api/part/${unknown}`));
  const customer = await signUpViaApi(request);
  await useToken(page, customer.token);
  await page.goto('/part/00000000-0000-4000-8000-000000000000');
  // The app's not-found page, as for any address that names nothing (more in messages.spec.ts).
  await expect(page.getByRole('heading', { name: 'OPPS! Page Not Found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to home' })).toBeVisible();
});

test('My Order lists the order and deletes it after Confirm Delete, giving the stock back', async ({
  page,
  request,
}) => {
  const part = await addPart(request, { price: 40, availablequantity: 20, minimunorder: 2 });
  const customer = await signUpViaApi(request);
  await orderViaApi(request, customer.token, part._id, 5);
  await useToken(page, customer.token);
  await page.goto('/dashboard/myorder');

  const row = page.getByRole('row').filter({ hasText: part.name });
  await expect(row).toBeVisible();
  await expect(row.getByRole('rowheader')).toHaveText('1');
  await expect(row).toContainText('$200.00');
  await expect(row).toContainText('$40.00 per unit');
  await expect(row).toContainText('5 PCS');
  await expect(row.getByRole('link', { name: `Pay for ${part.name}` })).toHaveAttribute(
    'href',
    /\/dashboard\/payment\//,
  );
  await expectAccessible(page);

  await row.getByRole('button', { name: `Delete order of ${part.name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm Delete' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: `Delete order of ${part.name}` }).click();
  await page.getByRole('dialog', { name: 'Confirm Delete' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('You have not ordered anything yet.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Browse Parts' })).toHaveAttribute('href', '/allparts');
  const stock = await (await request.get(`/api/part/${part._id}`)).json();
  expect(stock.availablequantity).toBe(20);
});

test.describe('on a 375 px phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the purchase screen and My Order fit the screen', async ({ page, request }, testInfo) => {
    const part = await addPart(request, { price: 99.99, availablequantity: 50, minimunorder: 1 });
    const customer = await signUpViaApi(request);
    await orderViaApi(request, customer.token, part._id, 2);
    await useToken(page, customer.token);

    await page.goto(`/part/${part._id}`);
    await expect(page.getByRole('button', { name: 'Place Order' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: testInfo.outputPath('orders-purchase-375.png'), fullPage: true });

    await page.goto('/dashboard/myorder');
    const row = page.getByRole('row').filter({ hasText: part.name });
    await expect(row.getByRole('link', { name: `Pay for ${part.name}` })).toBeInViewport();
    await expect(row.getByRole('button', { name: `Delete order of ${part.name}` })).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: testInfo.outputPath('orders-myorder-375.png'), fullPage: true });
    await expectAccessible(page);
  });
});
