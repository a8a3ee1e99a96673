import type { APIRequestContext, Page } from '@playwright/test';
import { signInAdminViaApi, signUpViaApi, useToken } from './support/accounts.ts';
import { expect, expectAccessible, expectHydrated, holdRequests, test } from './support/fixtures.ts';
import { putInGarage } from './support/garage.ts';

/**
 * The cart's lines: with a vehicle chosen, Add To Cart on a part that does not fit asks first, and the cart and
 * checkout say of every line whether it fits; on a phone the cart is a stacked list with every control on the
 * screen; a quantity above the stock says how many there are. The demo seed's Exhaust Silencer fits only the Yamaha
 * MT-07 and Ténéré 700, its O-Ring Drive Chain fits the 2019 Yamaha YZ250F.
 */

const YAMAHA = '2019 Yamaha YZ250F';

interface SeedPart {
  _id: string;
  name: string;
  minimunorder: number;
}

async function seedPart(request: APIRequestContext, name: string): Promise<SeedPart> {
  const found = (await (await request.get(`/api/part?q=${encodeURIComponent(name)}`)).json()) as SeedPart[];
  const part = found.find((candidate) => candidate.name === name);
  if (!part) throw new Error(`no ${name} in the demo seed`);
  return part;
}

/** A customer shopping for the 2019 Yamaha YZ250F (in the account's garage). */
async function customerWithYamaha(page: Page) {
  const customer = await signUpViaApi(page.request, 'Yara Yamaha');
  const headers = { authorization: `Bearer ${customer.token}` };
  await putInGarage(page.request, customer.token, YAMAHA);
  return { customer, headers };
}

/** Every control of the cart inside the screen's width, and nothing in the cart scrolling sideways. */
async function expectCartWithinScreen(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const table = page.getByRole('table', { name: 'The parts in your cart' });
  // The table itself wider than its box, or anything around or in it that scrolls sideways (a responsive wrapper).
  const sideways = await table.evaluate((element) => {
    const around: Element[] = [];
    for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) around.push(box);
    const scrolls = (box: Element) => ['auto', 'scroll'].includes(getComputedStyle(box).overflowX);
    const boxes = [element, ...around, ...[...element.querySelectorAll('*')].filter(scrolls)];
    return boxes.filter((box) => box.scrollWidth > box.clientWidth + 1).map((box) => `${box.tagName}.${box.className}`);
  });
  expect(sideways, 'cart elements that scroll sideways').toEqual([]);
  const controls = [
    ...(await table.getByRole('button', { name: /^Remove / }).all()),
    ...(await table.getByRole('spinbutton').all()),
  ];
  expect(controls.length).toBeGreaterThan(0);
  for (const control of controls) {
    await expect(control).toBeVisible();
    const box = await control.boundingBox();
    expect(box, 'a cart control has a box').not.toBeNull();
    if (!box) continue;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
  }
}

for (const width of [375, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('with a vehicle chosen, Add To Cart asks about a part that does not fit, and the cart and checkout badge every line', async ({
      page,
    }) => {
      test.setTimeout(90_000);
      const silencer = await seedPart(page.request, 'Exhaust Silencer');
      const chain = await seedPart(page.request, 'O-Ring Drive Chain');
      const { customer, headers } = await customerWithYamaha(page);
      await useToken(page, customer.token);
      const cartLink = page.getByRole('link', { name: /^Cart, \d+ parts?$/ });

      // The purchase screen asks the same question as Place Order does, before the part goes in the cart.
      await page.goto(`/part/${silencer._id}`);
      await expect(page.getByRole('heading', { name: 'Purchase Exhaust Silencer' })).toBeVisible();
      await expectHydrated(page);
      await expect(page.locator('.part-card')).toContainText(`Does not fit your ${YAMAHA}`);
      await expect(cartLink).toHaveAccessibleName('Cart, 0 parts');
      const question = page.getByRole('dialog', { name: `Does not fit your ${YAMAHA}. Add it to the cart anyway?` });
      await page.getByRole('button', { name: 'Add To Cart' }).click();
      await expect(question).toBeVisible();
      await expect(question).toContainText('It fits:');
      await question.getByRole('button', { name: 'Cancel' }).click();
      await expect(question).toBeHidden();
      await expect(cartLink).toHaveAccessibleName('Cart, 0 parts');
      await page.getByRole('button', { name: 'Add To Cart' }).click();
      await question.getByRole('button', { name: 'Add Anyway' }).click();
      await expect(cartLink).toHaveAccessibleName('Cart, 1 part');
      // Asked once for this vehicle: the next Add To Cart of this part goes straight in.
      const again = page.waitForResponse((r) => r.url().includes('/api/cart/items/') && r.request().method() === 'PUT');
      await page.getByRole('button', { name: 'Add To Cart' }).click();
      expect((await again).status()).toBe(200);
      await expect(question).toBeHidden();

      // A part that fits goes in without a question.
      const put = await page.request.put(`/api/cart/items/${chain._id}`, {
        headers,
        data: { quantity: chain.minimunorder },
      });
      expect(put.status(), await put.text()).toBe(200);

      // The cart: each line's badge for the chosen vehicle, and a warning on the one that does not fit.
      await page.goto('/cart');
      await expect(page.getByRole('heading', { name: 'Your Cart' })).toBeVisible();
      const silencerLine = page.getByRole('row').filter({ hasText: 'Exhaust Silencer' });
      const chainLine = page.getByRole('row').filter({ hasText: 'O-Ring Drive Chain' });
      await expect(silencerLine.locator('[data-fit="doesNotFit"]')).toHaveText(`✕ Does not fit your ${YAMAHA}`);
      await expect(silencerLine).toContainText('Check this part before you order it.');
      await expect(chainLine.locator('[data-fit="fits"]')).toHaveText(`✓ Fits your ${YAMAHA}`);
      await expect(chainLine).not.toContainText('Check this part before you order it.');
      await expect(page.getByText(`1 part in your cart does not fit your ${YAMAHA}.`)).toBeVisible();
      await expectCartWithinScreen(page, width);
      await expectAccessible(page);

      // Checkout says the same beside what will be ordered.
      await page.getByRole('button', { name: 'Checkout' }).click();
      await expect(page.getByRole('heading', { name: 'Checkout' })).toBeVisible();
      const summary = page.getByRole('region', { name: 'Your Order' });
      await expect(summary.getByText(`1 part in your cart does not fit your ${YAMAHA}.`)).toBeVisible();
      const silencerItem = summary.getByRole('listitem').filter({ hasText: 'Exhaust Silencer' });
      const chainItem = summary.getByRole('listitem').filter({ hasText: 'O-Ring Drive Chain' });
      await expect(silencerItem.locator('[data-fit="doesNotFit"]')).toBeVisible();
      await expect(silencerItem).toContainText('Check this part before you order it.');
      await expect(chainItem.locator('[data-fit="fits"]')).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectAccessible(page);
    });
  });
}

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 667 } });

  test('the cart is a stacked list with every control on the screen, and a quantity above the stock says how many there are', async ({
    page,
  }) => {
    const admin = await signInAdminViaApi(page.request);
    const tag = `l${Math.random().toString(36).slice(2, 7)}`;
    const names = [`${tag} Wide Grip Set`, `${tag} Lever`];
    const customer = await signUpViaApi(page.request, 'Stacy Stack');
    for (const name of names) {
      const res = await page.request.post('/api/part', {
        headers: { authorization: `Bearer ${admin.token}` },
        data: {
          name,
          desription: 'A part for the cart lines browser test.',
          img: '/images/parts/brake-disc.svg',
          price: 12.5,
          availablequantity: 40,
          minimunorder: 1,
        },
      });
      expect(res.status(), await res.text()).toBe(201);
      const { _id } = (await res.json()) as { _id: string };
      const put = await page.request.put(`/api/cart/items/${_id}`, {
        headers: { authorization: `Bearer ${customer.token}` },
        data: { quantity: 2 },
      });
      expect(put.status(), await put.text()).toBe(200);
    }
    await useToken(page, customer.token);
    await page.goto('/cart');
    await expect(page.getByRole('heading', { name: 'Your Cart' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(2);
    await expectCartWithinScreen(page, 375);
    await expectAccessible(page);

    // Far above the stock: the stock is named, not the largest order total.
    const quantity = page.getByLabel(`Quantity of ${names[1]}`);
    await quantity.fill('999999');
    await quantity.press('Enter');
    const toasts = page.locator('.Toastify');
    await expect(toasts.getByText('Only 40 PCS in stock')).toBeVisible();
    await expect(toasts).not.toContainText('One order can be at most');
    await expect(quantity).toHaveValue('2');
    // One above, and left by Tab: the same words, and the quantity goes back to what the cart holds.
    await quantity.fill('41');
    await quantity.press('Tab');
    await expect(quantity).toHaveValue('2');
    // Within the stock it is set.
    await quantity.fill('40');
    await quantity.press('Enter');
    await expect(page.getByText('Total: $525.00')).toBeVisible();
  });
});

test.describe('at 375 px, a visitor', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test('with a vehicle and a cart in this browser: Add To Cart asks, the cart badges the line, until the vehicle is cleared', async ({
    page,
  }) => {
    const silencer = await seedPart(page.request, 'Exhaust Silencer');
    const vehicles = (await (await page.request.get('/api/vehicle?year=2019&limit=100')).json()) as {
      id: string;
      label: string;
    }[];
    const yamaha = vehicles.find((vehicle) => vehicle.label === YAMAHA);
    if (!yamaha) throw new Error(`no ${YAMAHA} in the demo seed`);
    await page.addInitScript((vehicle) => {
      if (localStorage.getItem('redline.garage')) return;
      const garage = { vehicles: [{ vehicleId: vehicle.id, name: null, vehicle }], currentVehicleId: vehicle.id };
      localStorage.setItem('redline.garage', JSON.stringify(garage));
    }, yamaha);

    await page.goto(`/part/${silencer._id}`);
    await expectHydrated(page);
    await expect(page.locator('.part-card')).toContainText(`Does not fit your ${YAMAHA}`);
    await page.getByRole('button', { name: 'Add To Cart' }).click();
    const question = page.getByRole('dialog', { name: `Does not fit your ${YAMAHA}. Add it to the cart anyway?` });
    await question.getByRole('button', { name: 'Add Anyway' }).click();
    const cartLink = page.getByRole('link', { name: /^Cart, \d+ parts?$/ });
    await expect(cartLink).toHaveAccessibleName('Cart, 1 part');

    await cartLink.click();
    await expect(page.getByRole('heading', { name: 'Your Cart' })).toBeVisible();
    const line = page.getByRole('row').filter({ hasText: 'Exhaust Silencer' });
    await expect(line.locator('[data-fit="doesNotFit"]')).toBeVisible();
    await expect(line).toContainText('Check this part before you order it.');
    await expectCartWithinScreen(page, 375);
    // No vehicle, no fit to tell.
    await page
      .getByRole('complementary', { name: 'Your vehicle' })
      .getByRole('button', { name: 'Clear vehicle' })
      .click();
    await expect(line.locator('[data-fit]')).toHaveCount(0);
    await expect(line).not.toContainText('Check this part before you order it.');
    await expect(page.getByText(/in your cart do(es)? not fit/)).toHaveCount(0);
  });
});

test('an Add To Cart pressed while the fit for the chosen vehicle is still asked for waits for it, then asks', async ({
  page,
}) => {
  const silencer = await seedPart(page.request, 'Exhaust Silencer');
  const { customer } = await customerWithYamaha(page);
  await useToken(page, customer.token);
  const puts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().includes('/api/cart/items/')) puts.push(r.url());
  });
  // The server renders the part for no vehicle; the account's vehicle's answer is held here.
  const fitAnswer = await holdRequests(
    page,
    (url) => url.pathname === `/api/part/${silencer._id}` && url.searchParams.has('vehicle'),
  );
  await page.goto(`/part/${silencer._id}`);
  await expect(page.getByRole('heading', { name: 'Purchase Exhaust Silencer' })).toBeVisible();
  await expectHydrated(page);
  await fitAnswer.asked;
  const addToCart = page.getByRole('button', { name: 'Add To Cart' });
  await addToCart.click();
  const question = page.getByRole('dialog', { name: `Does not fit your ${YAMAHA}. Add it to the cart anyway?` });
  await expect(addToCart).toBeDisabled();
  await expect(question).toHaveCount(0);
  expect(puts).toEqual([]);

  fitAnswer.release();
  await expect(question).toBeVisible();
  await question.getByRole('button', { name: 'Cancel' }).click();
  await expect(addToCart).toBeEnabled();
  expect(puts).toEqual([]);
  await expect(page.getByRole('link', { name: /^Cart, \d+ parts?$/ })).toHaveAccessibleName('Cart, 0 parts');
});
