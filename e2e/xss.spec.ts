import type { APIRequestContext, Page } from '@playwright/test';
import { signInAdminViaApi, signUpViaApi, useToken } from './support/accounts.ts';
import { expect, test } from './support/fixtures.ts';

/**
 * Markup typed into a product name or a review is shown as text, never run: every payload must appear as visible
 * text, no element it describes may exist in the page, no script may have set `window.__xss`, and no dialog may open.
 * (The CSP would also block inline scripts; this checks the first line of defence, React's escaping.)
 */
const PART_NAMES = ['<script>x</script>', '<svg onload=alert()>', '<b onmouseover=1>x'] as const;
const REVIEW_NAME = '<img src=x onerror=alert(1)>';
const REVIEW_TEXT = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">';

async function post(request: APIRequestContext, token: string, url: string, data: object) {
  const res = await request.post(url, { headers: { authorization: `Bearer ${token}` }, data });
  if (!res.ok()) throw new Error(`${url} failed: ${res.status()} ${await res.text()}`);
  return res.json();
}

/** Fails the test on any dialog (alert, confirm, prompt), and dismisses it so the page does not hang. */
function watchDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return dialogs;
}

async function expectNothingRan(page: Page, dialogs: string[]) {
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  // None of the payloads became an element.
  await expect(page.locator('img[src="x"], svg[onload], b[onmouseover], script:text("__xss")')).toHaveCount(0);
  expect(dialogs).toEqual([]);
}

test.describe('markup in shop data renders as text', () => {
  test('product names and a review holding HTML show as text on the home page, All Parts and Manage Products', async ({
    page,
    request,
  }) => {
    const admin = await signInAdminViaApi(request);
    const tag = `xss${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const parts: { _id: string; name: string }[] = [];
    for (const name of PART_NAMES) {
      parts.push(
        await post(request, admin.token, '/api/part', {
          name,
          desription: `Markup test ${tag} <i>not italic</i>`,
          price: 12.5,
          availablequantity: 10,
          minimunorder: 1,
          img: '/images/parts/brake-disc.svg',
        }),
      );
    }
    expect(parts.map((p) => p.name)).toEqual([...PART_NAMES]);
    const customer = await signUpViaApi(request, 'Xss Reviewer');
    await post(request, customer.token, '/api/review', {
      name: REVIEW_NAME,
      number: 4,
      img: '/images/avatars/avatar-2.svg',
      review: `${REVIEW_TEXT} ${tag}`,
    });

    const dialogs = watchDialogs(page);
    await useToken(page, admin.token);

    await test.step('home page: the latest parts and the review', async () => {
      await page.goto('/');
      for (const name of PART_NAMES) await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
      const reviews = page.locator('section', { has: page.getByRole('heading', { name: 'Our Client Says' }) });
      await expect(reviews.getByText(REVIEW_NAME, { exact: true }).first()).toBeVisible();
      await expect(reviews.getByText(`${REVIEW_TEXT} ${tag}`)).toBeVisible();
      await expectNothingRan(page, dialogs);
    });

    await test.step('All Parts, searched by the test’s own tag', async () => {
      await page.goto(`/allparts?q=${tag}`);
      for (const name of PART_NAMES) await expect(page.getByText(name, { exact: true })).toBeVisible();
      await expect(page.getByText(`Markup test ${tag} <i>not italic</i>`).first()).toBeVisible();
      await expectNothingRan(page, dialogs);
    });

    await test.step('a purchase page', async () => {
      await page.goto(`/part/${parts[0]?._id}`);
      await expect(page.getByText(PART_NAMES[0], { exact: true }).first()).toBeVisible();
      await expectNothingRan(page, dialogs);
    });

    await test.step('Manage Products', async () => {
      await page.goto(`/dashboard/manageproduct?q=${tag}`);
      await expect(page.getByRole('heading', { name: 'Manage Products' })).toBeVisible();
      for (const name of PART_NAMES) await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
      await expectNothingRan(page, dialogs);
    });
  });
});
