import type { APIRequestContext } from '@playwright/test';
import { signInAdminViaApi, signUpViaApi, useToken } from './support/accounts.ts';
import { expect, expectAccessible, expectHydrated, test } from './support/fixtures.ts';

async function addPartViaApi(request: APIRequestContext, token: string, name: string, price = 77.5) {
  const res = await request.post('/api/part', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      name,
      desription: 'Added by the home page test',
      price,
      availablequantity: 50,
      minimunorder: 2,
      img: '/images/parts/oil-filter.svg',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { _id: string; name: string };
}

test.describe('home page', () => {
  test('shows every section of the spec with its exact texts and prices', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveTitle(/Redline Parts/);

    const hero = page.locator('section', { has: page.getByRole('heading', { level: 1 }) });
    await expect(page.getByRole('heading', { level: 1 })).toContainText(/Build Your Store.*Sell.*Earn Money/);
    await expect(hero.getByRole('link', { name: 'Explore More' })).toHaveAttribute('href', '/allparts');

    await expect(page.getByRole('heading', { name: 'Dirt Bike Safety Gear' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'I NEED IT' })).toHaveAttribute('href', '/allparts?q=protector');
    await expect(page.getByRole('img', { name: /motocross helmet/ })).toBeVisible();

    for (const alt of [/Workshop tools/, /motorcycle wheel/, /open road at sunset/]) {
      await expect(page.getByRole('img', { name: alt })).toBeAttached();
    }

    const featured = page.locator('section', { has: page.getByRole('heading', { name: 'Featured Products' }) });
    for (const [name, price] of [
      ['Sport Breake', '$260.00'],
      ['Sport Seat', '$210.00'],
      ['Sport Shoes', '$400.00'],
      ['Pressure Meter', '$310.00'],
    ] as const) {
      const card = featured.locator('article', { has: page.getByRole('heading', { name, exact: true }) });
      await expect(card).toContainText(price);
      await expect(card.getByRole('img', { name })).toBeAttached();
    }

    for (const [figure, label] of [
      ['72+', 'Countries'],
      ['535+', 'Complete Projects'],
      ['277+', 'Happy Clients'],
      ['437+', 'Feedbacks'],
    ] as const) {
      await expect(page.getByText(figure, { exact: true })).toBeVisible();
      await expect(page.getByText(label, { exact: true })).toBeVisible();
    }

    await expect(page.getByRole('link', { name: 'Request For Quote' })).toHaveAttribute('href', /^mailto:/);
    await page.getByRole('button', { name: 'Contact Us' }).click();
    const dialog = page.getByRole('dialog', { name: 'Contact Us' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
    await expect(dialog.getByRole('link', { name: /\+1/ })).toHaveAttribute('href', /^tel:/);
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await expect(dialog).toBeHidden();

    const reviews = page.locator('section', { has: page.getByRole('heading', { name: 'Our Client Says' }) });
    await expect(reviews.getByRole('heading', { level: 3 }).first()).toBeVisible();
    await expect(reviews.getByRole('img', { name: /^Rated [1-5] out of 5$/ }).first()).toBeVisible();

    const parts = page.locator('section', { has: page.getByRole('heading', { name: 'Parts', exact: true }) });
    await expect(parts.getByRole('link', { name: 'See All' })).toHaveAttribute('href', '/allparts');
    await expect(parts.getByRole('link', { name: /^Purchase / })).toHaveCount(6);
    await expect(parts.getByText(/\(Per Unit\)/).first()).toBeVisible();
    await expect(parts.getByText(/^Available Quantity: \d+ PCS$/).first()).toBeVisible();
    await expect(parts.getByText(/^Minimum Order: \d+ PCS$/).first()).toBeVisible();

    await expectAccessible(page);
  });

  test('lists the latest six parts, newest first, asking the server for only those', async ({ page, request }) => {
    const admin = await signInAdminViaApi(request);
    const tag = Math.random().toString(36).slice(2, 7);
    const older = await addPartViaApi(request, admin.token, `Older ${tag}`);
    const newer = await addPartViaApi(request, admin.token, `Newer ${tag}`);

    // The server renders the home page with its data, so the list is asked for there, by the page's own
    // query; the page carries its key (its parameters) to the browser, which then asks for nothing more.
    const response = await page.goto('/');
    const html = (await response?.text()) ?? '';
    const state = JSON.parse(html.match(/id="redline-server-state">(.*?)<\/script>/)?.[1] ?? 'null') as {
      queries: { queries: { queryKey: unknown }[] };
    };
    expect(state.queries.queries.map((query) => query.queryKey)).toContainEqual([
      'parts',
      'list',
      { sort: 'newest', limit: 6 },
    ]);

    const parts = page.locator('section', { has: page.getByRole('heading', { name: 'Parts', exact: true }) });
    const names = parts.getByRole('heading', { level: 3 });
    await expect(names).toHaveCount(6);
    const shown = await names.allTextContents();
    // Other tests may add parts at the same time; ours must both be there, the newer one first.
    expect(shown).toContain(newer.name);
    if (shown.includes(older.name)) expect(shown.indexOf(newer.name)).toBeLessThan(shown.indexOf(older.name));
    await expect(parts.getByRole('link', { name: `Purchase ${newer.name}` })).toHaveAttribute(
      'href',
      `/part/${newer._id}`,
    );
  });

  test("'Purchase' on a home card opens that part for a signed-in customer", async ({ page, request }) => {
    const admin = await signInAdminViaApi(request);
    const part = await addPartViaApi(request, admin.token, `Buy ${Math.random().toString(36).slice(2, 8)}`, 12.34);
    const customer = await signUpViaApi(request);
    await useToken(page, customer.token);
    await page.goto('/');
    await page.getByRole('link', { name: `Purchase ${part.name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/part/${part._id}$`));
    await expect(page.getByText(part.name).first()).toBeVisible();
  });

  test("'Explore More' and 'I NEED IT' lead into the catalogue", async ({ page, request }) => {
    const customer = await signUpViaApi(request);
    await useToken(page, customer.token);
    await page.goto('/');
    await page.getByRole('link', { name: 'Explore More' }).click();
    await expect(page).toHaveURL(/\/allparts$/);
    await expect(page.getByRole('heading', { name: 'Parts', level: 1 })).toBeVisible();
    await page.goBack();
    await page.getByRole('link', { name: 'I NEED IT' }).click();
    await expect(page).toHaveURL(/\/allparts\?q=protector$/);
    await expect(page.getByRole('combobox', { name: 'Search parts' })).toHaveValue('protector');
  });

  test('fits a 375 px phone screen without sideways scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/');
    await expect(page.getByRole('link', { name: /^Purchase / }).first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expect(page.getByRole('link', { name: 'Explore More' })).toBeInViewport();
    await expectAccessible(page);
  });
});

test.describe('home page when the shop is unreachable', () => {
  test.use({ allowedConsoleErrors: [/status of 503/] });

  test('shows an error with a retry when the parts cannot be loaded', async ({ page }) => {
    let fail = true;
    await page.route('**/api/part?*', (route) =>
      fail
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ error: { code: 'unavailable', message: 'The shop is resting.' } }),
          })
        : route.continue(),
    );
    // A home page loaded afresh comes with its parts from the server; the browser asks for them itself
    // when the visitor comes to it from another page.
    await page.goto('/blog');
    await expectHydrated(page);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Home', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load the latest parts' });
    await expect(alert).toBeVisible({ timeout: 20_000 });
    fail = false;
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('link', { name: /^Purchase / }).first()).toBeVisible();
  });
});
