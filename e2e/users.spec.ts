import { type E2eUser, signInAdminViaApi, signUpViaApi, useToken } from './support/accounts.ts';
import { expect, expectAccessible, test } from './support/fixtures.ts';

/**
 * The Users page on a phone: an owner finds customers by part of a name or an email and pages through the matches
 * with the keyboard alone; a search that matches nobody says so.
 */
test('an admin searches the users and pages through the matches at 375 px, by keyboard', async ({ page, request }) => {
  // Twenty-six real sign-ups (each mailed its link, its password hashed): more than one page of 25. About 85 s alone
  // on a busy 2-core machine, most of it hashing, so more room than test.slow()'s 135 s.
  test.setTimeout(240_000);
  const tag = `Pager${Math.random().toString(36).slice(2, 7)}`;
  const riders: E2eUser[] = [];
  for (let batch = 0; batch < 26; batch += 4) {
    const size = Math.min(4, 26 - batch);
    riders.push(
      ...(await Promise.all(
        Array.from({ length: size }, (_, i) => signUpViaApi(request, `${tag} Rider ${batch + i + 1}`)),
      )),
    );
  }
  const admin = await signInAdminViaApi(request);
  await useToken(page, admin.token);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/dashboard/users');
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();

  // Any case, spaces around: the search is trimmed and ignores case.
  const box = page.getByRole('searchbox', { name: 'Search by name or email' });
  await box.focus();
  await page.keyboard.type(`  ${tag.toUpperCase()} `);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: `26 users match “${tag.toUpperCase()}”.` })).toBeVisible();
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(25);
  const pages = page.getByRole('navigation', { name: 'User pages' });
  await expect(pages).toContainText('1–25 of 26');
  const firstPage = await rows.allInnerTexts();
  // The name shows under the email on a phone, and nothing needs a sideways scroll.
  await expect(rows.first()).toContainText(`${tag} Rider`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectAccessible(page);

  // Next, from the keyboard: the last match on its own page; Next is then disabled, so focus moves to Previous.
  await pages.getByRole('button', { name: 'Next' }).focus();
  await page.keyboard.press('Enter');
  await expect(pages).toContainText('26–26 of 26');
  await expect(rows).toHaveCount(1);
  await expect(page).toHaveURL(/[?&]after=/);
  await expect(pages.getByRole('button', { name: 'Next' })).toBeDisabled();
  await expect(pages.getByRole('button', { name: 'Previous' })).toBeFocused();
  const secondPage = await rows.allInnerTexts();
  // Every match once across the two pages.
  const emailsShown = [...firstPage, ...secondPage].map((text) => riders.find((r) => text.includes(r.email))?.email);
  expect(new Set(emailsShown).size).toBe(26);
  expect(emailsShown).not.toContain(undefined);

  await page.keyboard.press('Enter');
  await expect(pages).toContainText('1–25 of 26');
  expect(await rows.allInnerTexts()).toEqual(firstPage);

  // By email: exactly that customer, with their Make Admin button.
  const rider = riders[7] as E2eUser;
  await box.fill(rider.email.toUpperCase());
  await box.press('Enter');
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByRole('button', { name: `Make Admin: ${rider.email}` })).toBeVisible();
  await expect(pages).toHaveCount(0);

  // Nobody: the empty state names the search, and Clear search brings everyone back.
  await box.fill(`${tag}-nobody`);
  await box.press('Enter');
  const nobody = `No users match “${tag}-nobody”.`;
  // Shown once (the empty state), and read out once (the count's status, hidden on screen then).
  await expect(page.getByText(nobody).and(page.locator(':not([role="status"])'))).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: nobody })).toHaveClass(/visually-hidden/);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(box).toHaveValue('');
  await expect(box).toBeFocused();
  await expect(page.getByRole('row').filter({ hasText: admin.email })).toBeVisible();
});
