import { signUpViaApi, useToken } from './support/accounts.ts';
import { expect, expectAccessible, test } from './support/fixtures.ts';

test.describe('reviews', () => {
  test('a customer adds a review and sees it on the home page', async ({ page, request }) => {
    const customer = await signUpViaApi(request, 'Robin Reviewer');
    await useToken(page, customer.token);
    const name = `Robin ${Math.random().toString(36).slice(2, 7)}`;
    const words = `Quick delivery and the chain fits perfectly (${name}).`;

    await page.goto('/dashboard/addreview');
    await expect(page.getByRole('heading', { name: 'Please Say Something' })).toBeVisible();

    // Every field is required, checked by the same schema the server uses.
    await page.getByRole('button', { name: 'Add Review' }).click();
    await expect(page.getByText('Name Is Required')).toBeVisible();
    await expect(page.getByText('Choose A Rating From 1 To 5')).toBeVisible();
    await expect(page.getByText('Review Is Required')).toBeVisible();
    await page.getByLabel('Image Link').fill('javascript:alert(1)');
    await page.getByLabel('Name').focus();
    await expect(
      page.getByText('Choose A Picture From This Shop (For Example /images/avatars/avatar-2.svg)'),
    ).toBeVisible();
    // A picture on another site is refused too: it would tell that site who reads the home page.
    await page.getByLabel('Image Link').fill('https://example.com/me.png');
    await page.getByLabel('Name').focus();
    await expect(
      page.getByText('Choose A Picture From This Shop (For Example /images/avatars/avatar-2.svg)'),
    ).toBeVisible();
    await expectAccessible(page);

    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Rating (1 to 5)').fill('4');
    await page.getByLabel('Image Link').fill('/images/avatars/avatar-2.svg');
    await page.getByLabel('Review').fill(words);
    await page.getByRole('button', { name: 'Add Review' }).click();
    await expect(page.getByText('Thank You For Your Review')).toBeVisible();
    await expect(page.getByLabel('Name')).toHaveValue('');
    await expect(page.getByLabel('Rating (1 to 5)')).toHaveValue('');
    await expect(page.getByLabel('Review')).toHaveValue('');

    await page.goto('/');
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Our Client Says' }) });
    const card = section.locator('.review-card', { has: page.getByRole('heading', { name }) });
    await expect(card).toContainText(words);
    await expect(card.getByRole('img', { name: 'Rated 4 out of 5' })).toBeVisible();
    await expect(card.getByRole('img', { name })).toHaveAttribute('src', /avatar-2\.svg$/);
  });

  test('a visitor is asked to sign in before reviewing', async ({ page }) => {
    await page.goto('/dashboard/addreview');
    await expect(page).toHaveURL(/\/login/);
  });

  test('Add Review works on a 375 px phone', async ({ page, request }) => {
    const customer = await signUpViaApi(request);
    await useToken(page, customer.token);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/dashboard/addreview');
    await expect(page.getByRole('button', { name: 'Add Review' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
