import type { APIRequestContext } from '@playwright/test';
import { signInAdminViaApi, signUpViaApi, useToken } from './support/accounts.ts';
import { expect, expectAccessible, expectHydrated, test } from './support/fixtures.ts';

/** A short tag unique to one test, so its parts can be found among everyone else's. */
const newTag = () => `q${Math.random().toString(36).slice(2, 7)}`;

async function addParts(request: APIRequestContext, token: string, tag: string, count: number) {
  for (let n = 1; n <= count; n++) {
    const res = await request.post('/api/part', {
      headers: { authorization: `Bearer ${token}` },
      data: {
        name: `${tag} Part ${String(n).padStart(2, '0')}`,
        desription: `Test part number ${n} of ${tag}`,
        price: n,
        availablequantity: 100 + n,
        minimunorder: 1 + (n % 3),
        img: '/images/parts/spark-plug.svg',
      },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
}

test.describe('parts list (/allparts)', () => {
  test('searches, sorts and pages through the catalogue via the URL', async ({ page, request }) => {
    const admin = await signInAdminViaApi(request);
    const tag = newTag();
    await addParts(request, admin.token, tag, 30);
    const customer = await signUpViaApi(request);
    await useToken(page, customer.token);

    await page.goto('/allparts');
    await expect(page.getByRole('heading', { name: 'Parts', level: 1 })).toBeVisible();
    await expect(page).toHaveTitle('Parts | Redline Parts');
    await page.getByRole('combobox', { name: 'Search parts' }).fill(tag);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(new RegExp(`/allparts\\?q=${tag}$`));
    await expect(page.getByText(`30 parts matching “${tag}”, page 1 of 2`)).toBeVisible();
    const purchase = page.getByRole('link', { name: /^Purchase / });
    await expect(purchase).toHaveCount(24);

    // Default order is the catalogue's (oldest first): part 01 leads page 1.
    const first = page.locator('.part-card').first();
    await expect(first.getByRole('heading')).toHaveText(`${tag} Part 01`);
    await expect(first).toContainText('Price $1.00 (Per Unit)');
    await expect(first).toContainText('Available Quantity: 101 PCS');
    await expect(first).toContainText('Minimum Order: 2 PCS');
    await expect(first).toContainText(`Test part number 1 of ${tag}`);

    const pages = page.getByRole('navigation', { name: 'Parts pages' });
    await expect(pages.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    await pages.getByRole('button', { name: 'Next page' }).click();
    await expect(page).toHaveURL(new RegExp(`q=${tag}&page=2$`));
    await expect(purchase).toHaveCount(6);
    await expect(page.getByText(`30 parts matching “${tag}”, page 2 of 2`)).toBeVisible();
    await expect(page.locator('.part-card').first().getByRole('heading')).toHaveText(`${tag} Part 25`);

    // A new order starts again at page 1.
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Price: high to low' });
    await expect(page).toHaveURL(new RegExp(`q=${tag}&sort=price_desc$`));
    await expect(page.locator('.part-card').first().getByRole('heading')).toHaveText(`${tag} Part 30`);
    await expect(page.locator('.part-card').first()).toContainText('$30.00');

    // The URL is the state: going back returns to the previous page.
    await page.goBack();
    await expect(page.getByText(`page 2 of 2`)).toBeVisible();

    await page.goto(`/allparts?q=${tag}&sort=name&page=2`);
    await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('name');
    await expect(page.locator('.part-card').first().getByRole('heading')).toHaveText(`${tag} Part 25`);

    await page
      .locator('.part-card')
      .first()
      .getByRole('link', { name: /^Purchase / })
      .click();
    await expect(page).toHaveURL(/\/part\/[0-9a-f-]{36}$/);
    await expect(page.getByText(`${tag} Part 25`).first()).toBeVisible();
  });

  test('says plainly when nothing matches, and searches wildcards literally', async ({ page, request }) => {
    const customer = await signUpViaApi(request);
    await useToken(page, customer.token);
    await page.goto('/allparts?q=%25%25nothing%25');
    await expect(page.getByText('No parts match “%%nothing%”.')).toBeVisible();
    await page.getByRole('button', { name: 'Show all parts' }).click();
    await expect(page).toHaveURL(/\/allparts$/);
    await expect(page.getByRole('link', { name: /^Purchase / }).first()).toBeVisible();
    await expectAccessible(page);

    // A hand-edited page far past the end is an empty page with a way back, not an error.
    await page.goto('/allparts?page=999999999');
    await expect(page.getByText('There are no parts on this page.')).toBeVisible();
    await page.getByRole('button', { name: 'Go to the first page' }).click();
    await expect(page.getByRole('link', { name: /^Purchase / }).first()).toBeVisible();
  });

  // Spec §1: visitors browse; ordering asks them to sign in (e2e/cart-checkout.spec.ts).
  test('lets a visitor browse without signing in', async ({ page }) => {
    await page.goto('/allparts');
    await expect(page).toHaveURL(/\/allparts$/);
    await expect(page.getByRole('link', { name: /^Purchase / }).first()).toBeVisible();
  });

  // Next and Previous follow the API's cursors (after=/before= beside page=), by keyboard too; the URL is
  // still the state, so it can be shared and Back returns to the page before.
  test('pages by cursor with Next and Previous, from the keyboard, at 768 px', async ({ page, request }) => {
    const admin = await signInAdminViaApi(request);
    const tag = newTag();
    await addParts(request, admin.token, tag, 30);
    await page.setViewportSize({ width: 768, height: 900 });
    await page.goto(`/allparts?q=${tag}&sort=price_desc`);
    const firstCard = page.locator('.part-card').first().getByRole('heading');
    await expect(firstCard).toHaveText(`${tag} Part 30`);
    const pages = page.getByRole('navigation', { name: 'Parts pages' });
    await pages.getByRole('button', { name: 'Next page' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/sort=price_desc&page=2&after=[A-Za-z0-9_-]+$/);
    await expect(firstCard).toHaveText(`${tag} Part 06`);
    await expect(page.getByText(`30 parts matching “${tag}”, page 2 of 2`)).toBeVisible();
    const cursorPage = page.url();

    await pages.getByRole('button', { name: 'Previous page' }).click();
    await expect(page).toHaveURL(new RegExp(`q=${tag}&sort=price_desc$`));
    await expect(firstCard).toHaveText(`${tag} Part 30`);
    await page.goBack();
    await expect(page).toHaveURL(cursorPage);
    await expect(firstCard).toHaveText(`${tag} Part 06`);
    // A shared link to a cursor page opens that page; a broken cursor falls back to the page by number.
    await page.goto(cursorPage);
    await expect(firstCard).toHaveText(`${tag} Part 06`);
    await page.goto(`/allparts?q=${tag}&sort=price_desc&page=2&after=broken`);
    await expect(firstCard).toHaveText(`${tag} Part 06`);
    await expectAccessible(page);
  });

  test('works on a 375 px phone and passes axe', async ({ page, request }) => {
    const customer = await signUpViaApi(request);
    await useToken(page, customer.token);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/allparts?sort=newest');
    await expect(page.getByRole('link', { name: /^Purchase / }).first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page);
  });

  test("keeps a phone's closed filter drawer out of the first paint, and still slides it in (issue 15)", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/allparts');
    await expectHydrated(page);
    // The drawer in the page (react-bootstrap opens a dialog of its own beside it).
    const drawer = page.locator('#main .part-filters-drawer');
    const dialog = page.getByRole('dialog', { name: 'Filters' });
    // Not laid out at all while closed (Bootstrap only hides it: its ~45 fields were styled and laid out for nothing).
    expect(await drawer.evaluate((element) => getComputedStyle(element).display)).toBe('none');
    // Opening slides it in from off the screen (the transition's starting style), whatever the machine's speed: the
    // browser says so when the transition starts.
    const slid = page.evaluate(
      () =>
        new Promise<boolean>((resolve) => {
          document.addEventListener('transitionrun', (event) => {
            const target = event.target as Element;
            if (event.propertyName === 'transform' && target.matches('[role="dialog"].part-filters-drawer')) {
              resolve(true);
            }
          });
          setTimeout(() => resolve(false), 5000);
        }),
    );
    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    expect(await slid, 'the drawer slides in').toBe(true);
    const left = () => dialog.evaluate((element) => Math.round(element.getBoundingClientRect().left));
    await expect.poll(left).toBe(0);
    await expect(dialog.getByRole('group', { name: 'Category' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    expect(await drawer.evaluate((element) => getComputedStyle(element).display)).toBe('none');
  });
});

test.describe('product administration', () => {
  test('an admin adds, edits and deletes a product through the dashboard', async ({ page, request }) => {
    const admin = await signInAdminViaApi(request);
    await useToken(page, admin.token);
    const name = `${newTag()} Lever`;

    await page.goto('/dashboard/addaproduct');
    await expect(page.getByRole('heading', { name: 'Add A Product' })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(admin.email);
    await expect(page.getByLabel('Email')).toHaveAttribute('readonly', '');

    // The shared zod schema speaks under the fields before anything is sent.
    await page.getByRole('button', { name: 'Add Item' }).click();
    await expect(page.getByText('Product Name Is Required')).toBeVisible();
    await expect(page.getByText('Price Must Be A Number')).toBeVisible();
    await page.getByLabel('Name').fill('x'.repeat(20));
    await page.getByLabel('Price (USD per unit)').fill('10.555');
    await page.getByRole('button', { name: 'Add Item' }).click();
    await expect(page.getByText('Price Can Have At Most 2 Decimals')).toBeVisible();
    await expectAccessible(page);

    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Description').fill('Folding clutch lever <b>not bold</b>');
    await page.getByLabel('Price (USD per unit)').fill('39.99');
    await page.getByLabel('Available Quantity (PCS)').fill('120');
    await page.getByLabel('Minimum Order (PCS)').fill('2');
    await page.getByLabel('Photo URL').fill('/images/parts/clutch-lever.svg');
    await page.getByRole('button', { name: 'Add Item' }).click();
    await expect(page.getByText('Product Added Successfully')).toBeVisible();
    await expect(page.getByLabel('Name')).toHaveValue('');
    await expect(page.getByLabel('Price (USD per unit)')).toHaveValue('');

    await page.goto(`/dashboard/manageproduct?q=${encodeURIComponent(name)}`);
    await expect(page.getByRole('heading', { name: 'Manage Products' })).toBeVisible();
    const card = page.locator('.part-card', { has: page.getByRole('heading', { name }) });
    await expect(card).toContainText('$39.99 (Per Unit)');
    await expect(card).toContainText('Available Quantity: 120 PCS');
    await expect(card).toContainText('Minimum Order: 2 PCS');
    await expect(card).toContainText('Folding clutch lever <b>not bold</b>');
    await expectAccessible(page);

    await card.getByRole('button', { name: `Edit ${name}` }).click();
    const editor = page.getByRole('dialog', { name: 'Edit Product' });
    await expect(editor.getByLabel('Name')).toHaveValue(name);
    await editor.getByLabel('Price (USD per unit)').fill('45.5');
    await editor.getByLabel('Available Quantity (PCS)').fill('80');
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Product Updated Successfully')).toBeVisible();
    await expect(editor).toBeHidden();
    await expect(card).toContainText('$45.50 (Per Unit)');
    await expect(card).toContainText('Available Quantity: 80 PCS');
    await expect(card).toContainText('Minimum Order: 2 PCS');

    await card.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Are You Sure?' });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(card).toBeVisible();
    await card.getByRole('button', { name: `Delete ${name}` }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Product Deleted Successfully')).toBeVisible();
    await expect(card).toHaveCount(0);
    await expect(page.getByText(`No products match “${name}”.`)).toBeVisible();

    const check = await request.get(`/api/part?q=${encodeURIComponent(name)}`);
    expect(await check.json()).toEqual([]);
  });

  test('Manage Products works on a 375 px phone', async ({ page, request }) => {
    const admin = await signInAdminViaApi(request);
    await useToken(page, admin.token);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/dashboard/manageproduct');
    await expect(page.getByRole('button', { name: /^Delete / }).first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
