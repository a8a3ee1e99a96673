import { expect, expectAccessible, httpErrorMessage, test } from './support/fixtures.ts';

test.describe('public pages', () => {
  test('the home page loads with the navigation bar and footer', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveTitle(/Redline Parts/);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Parts', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'My Portfolio' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Blogs' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Login' })).toBeVisible();

    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('heading', { name: 'Follow Us' })).toBeVisible();
    for (const network of ['facebook', 'twitter', 'linkedin', 'instagram']) {
      await expect(footer.getByRole('link', { name: new RegExp(network) })).toBeVisible();
    }
    for (const entry of ['Home', 'Parts', 'Blog', 'Contact']) {
      await expect(footer.getByRole('link', { name: entry, exact: true })).toBeVisible();
    }
    await expect(footer).toContainText(`© ${new Date().getFullYear()} Redline Parts. All Rights Reserved`);
    await expectAccessible(page);
  });

  test('navbar links reach their pages', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'My Portfolio' }).click();
    await expect(page).toHaveURL(/\/myprotfolio$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page).toHaveTitle(/My Portfolio/);

    await nav.getByRole('link', { name: 'Blogs' }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Blogs' })).toBeVisible();

    await nav.getByRole('link', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/login$/);

    // Spec §1: visitors browse the parts catalogue without signing in.
    await nav.getByRole('link', { name: 'Parts', exact: true }).click();
    await expect(page).toHaveURL(/\/allparts$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    await page.getByRole('link', { name: 'Redline Parts' }).first().click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('the portfolio shows personal details and skills', async ({ page }) => {
    await page.goto('/myprotfolio');
    await expect(page.getByRole('heading', { name: 'Skills' })).toBeVisible();
    expect(await page.getByRole('progressbar').count()).toBeGreaterThanOrEqual(5);
    await expectAccessible(page);
  });

  test('the blog answers six questions', async ({ page }) => {
    await page.goto('/blog');
    await expect(page.getByRole('article')).toHaveCount(6);
    await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
    await expectAccessible(page);
  });

  test('an unknown route answers 404 and shows the not-found page with a way home', async ({
    page,
    allowConsoleMessage,
  }) => {
    allowConsoleMessage(httpErrorMessage(404, '/this/does/not/exist'));
    // The server answers an address that is no page with 404 (crawlers see "not found"), the app's page.
    const response = await page.goto('/this/does/not/exist');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'OPPS! Page Not Found' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('on a phone the navigation collapses behind a toggle that works by keyboard', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/blog');
    const toggle = page.getByRole('button', { name: 'Toggle navigation' });
    await expect(toggle).toBeVisible();
    await expect(page.getByRole('link', { name: 'My Portfolio' })).toBeHidden();
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('link', { name: 'My Portfolio' })).toBeVisible();
    await expectAccessible(page);
  });

  test('the API reference renders', async ({ page }) => {
    await page.goto('/api/docs/');
    // Swagger UI renders the whole document, a large one, in the browser before any heading shows: on a busy CI
    // machine that can take longer than the default timeout, though the document itself arrives quickly.
    await expect(page.getByText('Redline Parts API').first()).toBeVisible({ timeout: 30_000 });
  });
});
