import type { APIRequestContext, Page } from '@playwright/test';
import { signInAdminViaApi, signUpViaApi, useToken } from './support/accounts.ts';
import { expect, expectAccessible, holdRequests, test } from './support/fixtures.ts';

/**
 * On the purchase screen and the part cards: honest stock ('In Stock', 'Only N Left',
 * 'Out Of Stock' with Purchase and Place Order disabled for that reason), no total for a refused quantity, and one
 * order per submit however fast Enter is pressed.
 */

/** A short tag unique to one test, so its parts can be found among everyone else's. */
const newTag = () => `s${Math.random().toString(36).slice(2, 7)}`;

async function addPart(
  request: APIRequestContext,
  name: string,
  values: { availablequantity: number; minimunorder: number; price?: number },
): Promise<{ _id: string; name: string }> {
  const admin = await signInAdminViaApi(request);
  const res = await request.post('/api/part', {
    headers: { authorization: `Bearer ${admin.token}` },
    data: {
      name,
      desription: 'Brake lever for stock tests.',
      img: '/images/parts/brake-pads.svg',
      price: 8,
      ...values,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { _id: string; name: string };
}

async function ordersOf(request: APIRequestContext, token: string, partName: string) {
  const res = await request.get('/api/myorder', { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { name: string; quantity: number }[]).filter((order) => order.name === partName);
}

const card = (page: Page, name: string) => page.locator('.part-card').filter({ hasText: name });
const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text, { exact: true });

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('cards say In Stock, Only N Left or Out Of Stock, and Purchase is disabled out of stock', async ({
      page,
      request,
    }) => {
      const tag = newTag();
      await addPart(request, `${tag} Plenty`, { availablequantity: 100, minimunorder: 1 });
      await addPart(request, `${tag} Few`, { availablequantity: 7, minimunorder: 1 });
      const none = await addPart(request, `${tag} None`, { availablequantity: 0, minimunorder: 1 });
      // Fewer PCS than the minimum order: nothing can be ordered, so it is out of stock for a buyer too.
      await addPart(request, `${tag} Short`, { availablequantity: 4, minimunorder: 5 });
      const customer = await signUpViaApi(request);
      await useToken(page, customer.token);

      await page.goto(`/allparts?q=${tag}`);
      await expect(page.locator('.part-card')).toHaveCount(4);
      await expect(card(page, `${tag} Plenty`).getByText('In Stock', { exact: true })).toBeVisible();
      await expect(card(page, `${tag} Few`).getByText('Only 7 Left', { exact: true })).toBeVisible();
      for (const name of [`${tag} None`, `${tag} Short`]) {
        await expect(card(page, name).getByText('Out Of Stock', { exact: true })).toBeVisible();
        const purchase = card(page, name).getByRole('button', { name: `Purchase ${name}` });
        await expect(purchase).toBeDisabled();
        await expect(purchase).toHaveAccessibleDescription('Out Of Stock');
      }
      // The spec's card fields stay as they were.
      await expect(card(page, `${tag} None`)).toContainText('Available Quantity: 0 PCS');
      await expect(card(page, `${tag} Few`).getByRole('link', { name: `Purchase ${tag} Few` })).toBeEnabled();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectAccessible(page);

      // The purchase screen of the part with none left: Place Order is disabled, and says why.
      await page.goto(`/part/${none._id}`);
      await expect(page.getByRole('heading', { name: `Purchase ${none.name}` })).toBeVisible();
      await expect(page.locator('.part-card').getByText('Out Of Stock', { exact: true })).toBeVisible();
      const placeOrder = page.getByRole('button', { name: 'Place Order' });
      await expect(placeOrder).toBeDisabled();
      await expect(placeOrder).toHaveAccessibleDescription('Out Of Stock: this part cannot be ordered right now.');
      await expect(page.getByText('Out Of Stock: this part cannot be ordered right now.')).toBeVisible();
      // Enter in the form sends nothing either.
      let sent = 0;
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().endsWith('/api/myorder')) sent++;
      });
      await page.getByPlaceholder('Add Quantity').press('Enter');
      await expect(page.getByText(/^Total Price:/)).not.toContainText('$');
      expect(sent).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectAccessible(page);
    });
  });
}

test('the total shows only for a quantity the order rule accepts', async ({ page, request }) => {
  const tag = newTag();
  const part = await addPart(request, `${tag} Lever`, { availablequantity: 19, minimunorder: 2, price: 8 });
  const customer = await signUpViaApi(request);
  await useToken(page, customer.token);
  await page.goto(`/part/${part._id}`);
  await expect(page.locator('.part-card').getByText('Only 19 Left', { exact: true })).toBeVisible();
  const quantity = page.getByPlaceholder('Add Quantity');
  const total = page.getByText(/^Total Price:/);
  await expect(total).toHaveText('Total Price: $16.00');
  for (const refused of ['1', '20', '2.5', '']) {
    await quantity.fill(refused);
    await expect(total).not.toContainText('$');
  }
  await quantity.fill('19');
  await expect(total).toHaveText('Total Price: $152.00');
  // The spec's toasts still answer a bad quantity that is submitted anyway.
  await quantity.fill('20');
  await page.getByRole('button', { name: 'Place Order' }).click();
  await expect(toast(page, 'Stock Out')).toBeVisible();
  expect(await ordersOf(request, customer.token, part.name)).toEqual([]);
});

test('Enter pressed twice places one order; the same form sent again is the same order', async ({ page, request }) => {
  const tag = newTag();
  const part = await addPart(request, `${tag} Pads`, { availablequantity: 50, minimunorder: 1 });
  const customer = await signUpViaApi(request);
  await useToken(page, customer.token);
  const keys: (string | undefined)[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/myorder')) keys.push(r.headers()['idempotency-key']);
  });
  await page.goto(`/part/${part._id}`);
  const quantity = page.getByPlaceholder('Add Quantity');
  await quantity.fill('3');

  // Held at the network, the order is in flight: Place Order is disabled and more Enters send nothing.
  const order = await holdRequests(page, '**/api/myorder');
  await quantity.press('Enter');
  await quantity.press('Enter');
  await expect(page.getByRole('button', { name: 'Place Order' })).toBeDisabled();
  await quantity.press('Enter');
  order.release();
  await expect(toast(page, 'Your Order Has Been Placed')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Place Order' })).toBeEnabled();
  await page.unroute('**/api/myorder');
  expect(keys).toHaveLength(1);
  expect(await ordersOf(request, customer.token, part.name)).toHaveLength(1);

  // Not held: two Enters as fast as the keyboard sends them, and two submits in one turn of the page's event loop
  // (what two Enters do when they land before React has rendered the disabled button).
  await quantity.fill('4');
  await Promise.all([quantity.press('Enter'), quantity.press('Enter')]);
  await expect(page.getByRole('status').filter({ hasText: '4 PCS of' })).toBeVisible();
  await expect.poll(async () => (await ordersOf(request, customer.token, part.name)).length).toBe(2);
  await quantity.fill('5');
  await page
    .locator('form')
    .filter({ has: quantity })
    .evaluate((form: HTMLFormElement) => {
      form.requestSubmit();
      form.requestSubmit();
    });
  await expect(page.getByRole('status').filter({ hasText: '5 PCS of' })).toBeVisible();
  await expect.poll(async () => (await ordersOf(request, customer.token, part.name)).length).toBe(3);

  // The unchanged form again: the same key, so the server answers with the order it placed.
  // The two submits above may have reached the server as two requests with one key (on a busy machine they did),
  // and the second then said so in a toast of its own: let it close (5 s) so the one looked for is this click's.
  const alreadyPlaced = toast(page, 'This order is already placed');
  await expect(alreadyPlaced).toHaveCount(0, { timeout: 15_000 });
  const sentBefore = keys.length;
  await page.getByRole('button', { name: 'Place Order' }).click();
  await expect(alreadyPlaced).toBeVisible();
  expect(keys.length).toBe(sentBefore + 1);
  expect(keys.at(-1)).toBe(keys.at(-2));
  const orders = await ordersOf(request, customer.token, part.name);
  expect(orders.map((order) => order.quantity).sort()).toEqual([3, 4, 5]);
  await expectAccessible(page);
});

test.describe('on a 375 px phone', () => {
  test.use({ viewport: { width: 375, height: 667 } });

  test('the Total Price stays on the screen while the quantity is typed', async ({ page, request }) => {
    const tag = newTag();
    const part = await addPart(request, `${tag} Footpeg`, { availablequantity: 30, minimunorder: 1, price: 8 });
    const customer = await signUpViaApi(request);
    await useToken(page, customer.token);
    await page.goto(`/part/${part._id}`);
    await expect(page.getByRole('heading', { name: `Purchase ${part.name}` })).toBeVisible();
    const quantity = page.getByPlaceholder('Add Quantity');
    const total = page.getByText(/^Total Price:/);
    // Typed into as a person does: the field scrolled into the middle of the screen and focused.
    await quantity.click();
    await expect(quantity).toBeFocused();
    await quantity.fill('3');
    await expect(quantity).toBeInViewport({ ratio: 1 });
    await expect(total).toHaveText('Total Price: $24.00');
    await expect(total).toBeInViewport({ ratio: 1 });
    // The bar covers neither the field nor the buttons below it.
    const [field, bar] = [await quantity.boundingBox(), await total.boundingBox()];
    expect(field && bar && field.y + field.height <= bar.y).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByRole('button', { name: 'Add To Cart' }).scrollIntoViewIfNeeded();
    await expect(total).toBeInViewport({ ratio: 1 });
    await expectAccessible(page);
  });
});
