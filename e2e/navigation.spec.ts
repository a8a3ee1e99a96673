import type { Locator, Page } from '@playwright/test';
import { signInAdminViaApi, signUpViaApi, useToken } from './support/accounts.ts';
import { ADMIN_DASHBOARD_ENTRIES } from './support/constants.ts';
import { expect, expectAccessible, expectHydrated, test } from './support/fixtures.ts';

/*
 * Moving around the app as a keyboard and screen-reader user does: after each navigation inside the app the new
 * page's main heading has the focus (announced by its name) and the next Tab reaches that page's first control,
 * not the footer. The dashboard's menu shows every entry on a phone. The console stays clean throughout (the
 * fixtures fail a test on any warning or error).
 */

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const mainHeading = (page: Page) => page.getByRole('main').getByRole('heading', { level: 1 });

/** After a Tab, focus is on a control inside main that comes after its h1 (not the footer, not main itself). */
async function expectTabToReachMain(page: Page): Promise<void> {
  await page.keyboard.press('Tab');
  const where = await page.evaluate(() => {
    const active = document.activeElement;
    const main = document.querySelector('main');
    const heading = main?.querySelector('h1');
    return {
      inMain: Boolean(main && active && active !== main && main.contains(active)),
      afterHeading: Boolean(
        heading && active && heading.compareDocumentPosition(active) & Node.DOCUMENT_POSITION_FOLLOWING,
      ),
      inFooter: Boolean(active?.closest('footer')),
      what: active ? `${active.tagName} ${active.textContent?.trim().slice(0, 40)}` : 'nothing',
    };
  });
  expect(where, `the first Tab reached ${where.what}`).toMatchObject({
    inMain: true,
    afterHeading: true,
    inFooter: false,
  });
}

async function expectHeadingFocused(page: Page, name: string | RegExp): Promise<void> {
  const heading = mainHeading(page);
  await expect(heading).toHaveText(name);
  await expect(heading).toBeFocused();
}

test.describe('focus after navigation', () => {
  test('a link to another page focuses its h1, and the next Tab reaches that page, not the footer', async ({
    page,
  }) => {
    await page.goto('/blog');
    await expectHydrated(page);
    // The first load is the browser's: nothing is focused for the visitor.
    await expect(mainHeading(page)).toHaveText('Blogs');
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);

    await nav(page).getByRole('link', { name: 'Parts', exact: true }).click();
    await expect(page).toHaveURL(/\/allparts$/);
    await expectHeadingFocused(page, 'Parts');
    await expectTabToReachMain(page);

    // A link inside the page: a part's purchase screen.
    await page
      .getByRole('main')
      .getByRole('link', { name: /^Purchase / })
      .first()
      .click();
    await expect(page).toHaveURL(/\/part\//);
    await expectHeadingFocused(page, /^Purchase /);
    await expectTabToReachMain(page);

    // Back, as the browser's button does.
    await page.goBack();
    await expect(page).toHaveURL(/\/allparts$/);
    await expectHeadingFocused(page, 'Parts');

    await nav(page).getByRole('link', { name: 'Blogs', exact: true }).click();
    await expectHeadingFocused(page, 'Blogs');
    await expectTabToReachMain(page);
    await expectAccessible(page);
  });

  test('the skip link and a change of the search only are the same page: focus stays where it was put', async ({
    page,
  }) => {
    await page.goto('/');
    await expectHydrated(page);
    await nav(page).getByRole('link', { name: 'Parts', exact: true }).click();
    await expectHeadingFocused(page, 'Parts');
    // A search from the parts page changes the address's query only.
    await page.getByLabel('Search parts').fill('brake');
    const search = page.getByRole('search').getByRole('button', { name: 'Search' });
    await search.click();
    await expect(page).toHaveURL(/\/allparts\?.*brake/);
    await expect(mainHeading(page)).toHaveText('Parts');
    await expect(search).toBeFocused();

    // The skip link goes to #main: the same page, where the browser puts the focus.
    await page.goto('/blog');
    await expectHydrated(page);
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/blog#main$/);
    await expect(page.getByRole('main')).toBeFocused();
  });

  test('between dashboard pages, the opened page heading gets the focus once its module has loaded', async ({
    page,
    request,
  }) => {
    const customer = await signUpViaApi(request);
    await useToken(page, customer.token);
    await page.goto('/dashboard/myorder');
    await expect(mainHeading(page)).toBeVisible();
    const menu = page.getByRole('navigation', { name: 'Dashboard' });
    await menu.getByRole('link', { name: 'My Garage' }).click();
    await expect(page).toHaveURL(/\/dashboard\/mygarage$/);
    await expectHeadingFocused(page, /Garage/);
    await expectTabToReachMain(page);
  });
});

test.describe('the dashboard menu on a 375 px phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  /** Every entry is shown whole, inside the screen's width. */
  async function expectAllShown(links: Locator, labels: string[]): Promise<void> {
    await expect(links).toHaveText(labels);
    for (const link of await links.all()) {
      await expect(link).toBeVisible();
      const box = await link.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 375, `${await link.textContent()} fits the width`).toBe(true);
    }
  }

  test('an admin opens the menu and sees all nine entries; choosing one closes it', async ({ page, request }) => {
    const admin = await signInAdminViaApi(request);
    await useToken(page, admin.token);
    await page.goto('/dashboard/myprofile');
    const menu = page.getByRole('navigation', { name: 'Dashboard' });
    const toggle = menu.getByRole('button', { name: /Dashboard menu/ });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toContainText('My Profile');
    await expect(menu.getByRole('link')).toHaveCount(0);

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expectAllShown(menu.getByRole('link'), [...ADMIN_DASHBOARD_ENTRIES]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page);

    await menu.getByRole('link', { name: 'My Garage' }).click();
    await expect(page).toHaveURL(/\/dashboard\/mygarage$/);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toContainText('My Garage');
    await expectHeadingFocused(page, /Garage/);
  });

  test('a customer works the menu by keyboard: Enter opens it, Escape closes it back onto its button', async ({
    page,
    request,
  }) => {
    const customer = await signUpViaApi(request);
    await useToken(page, customer.token);
    await page.goto('/dashboard/myorder');
    const menu = page.getByRole('navigation', { name: 'Dashboard' });
    const toggle = menu.getByRole('button', { name: /Dashboard menu/ });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expectAllShown(menu.getByRole('link'), ['My Order', 'Add Review', 'My Profile', 'My Garage']);
    await page.keyboard.press('Tab');
    await expect(menu.getByRole('link', { name: 'My Order' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();

    await page.keyboard.press('Enter');
    await menu.getByRole('link', { name: 'My Profile' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dashboard\/myprofile$/);
    await expectHeadingFocused(page, /Profile/);
  });
});

test.describe('pages the browser renders itself', () => {
  // The fixtures fail a test on the router's "No `HydrateFallback` element provided" warning, which every such
  // page's first load logged.
  for (const path of ['/cart', '/login', '/register', '/forgot-password']) {
    test(`${path} loads with a clean console`, async ({ page }) => {
      await page.goto(path);
      await expect(mainHeading(page)).toBeVisible();
      await expectHydrated(page);
    });
  }

  test('a signed-in page loads with a clean console', async ({ page, request }) => {
    const customer = await signUpViaApi(request);
    await useToken(page, customer.token);
    await page.goto('/dashboard/myprofile');
    await expect(mainHeading(page)).toHaveText(/Profile/);
  });
});
