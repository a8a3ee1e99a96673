import type { APIRequestContext } from '@playwright/test';
import { signInAdminViaApi, useToken } from './support/accounts.ts';
import { expect, expectAccessible, test } from './support/fixtures.ts';

const HEADER = 'mpn,name,brand,category,price,stock,minimum_order,description,image_url';

/** How many parts a search for the tag finds (X-Total-Count). */
async function partsTagged(request: APIRequestContext, tag: string): Promise<number> {
  const res = await request.get(`/api/part?q=${tag}&limit=1`);
  expect(res.status()).toBe(200);
  return Number(res.headers()['x-total-count']);
}

test.describe('Import Products (issue 14)', () => {
  test('an admin imports a CSV with two bad rows: the dry run shows both by line, the real run imports the rest', async ({
    page,
    request,
  }) => {
    const admin = await signInAdminViaApi(request);
    await useToken(page, admin.token);
    const tag = `imp${Math.random().toString(36).slice(2, 7)}`;
    const good = (n: number) =>
      `${tag.toUpperCase()}-${n},${tag} Part ${n},Brembo,brake-pads,${10 + n}.50,${20 + n},1,Imported part,/images/parts/brake-pads.svg`;
    const csv = [
      HEADER,
      good(1),
      good(2),
      // Line 4: a price that is not a number.
      `${tag.toUpperCase()}-3,${tag} Part 3,Brembo,brake-pads,cheap,5,1,,/images/parts/brake-pads.svg`,
      good(4),
      good(5),
      // Line 7: no name.
      `${tag.toUpperCase()}-6,,Brembo,brake-pads,12,5,1,,/images/parts/brake-pads.svg`,
      good(7),
      good(8),
    ].join('\n');
    const file = { name: `${tag}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) };

    await page.goto('/dashboard');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Import Products' }).click();
    await expect(page.getByRole('heading', { name: 'Import Products', level: 1 })).toBeVisible();
    await expect(page).toHaveTitle('Import Products | Redline Parts');

    // The dry run: both bad rows with their line numbers, nothing written.
    await page.getByLabel('CSV file').setInputFiles(file);
    await expect(page.getByRole('checkbox', { name: /Dry run/ })).toBeChecked();
    await page.getByRole('button', { name: 'Check File' }).click();
    const check = page.getByRole('progressbar', { name: 'Check progress' });
    await expect(check).toBeVisible();
    await expect(page.getByText('Check finished')).toBeVisible();
    await expect(check).toHaveAttribute('aria-valuenow', '8');
    const errors = page.getByRole('table', { name: /Rows with errors/ });
    await expect(errors.getByRole('row')).toHaveCount(3);
    await expect(errors.getByRole('row').nth(1)).toContainText('4');
    await expect(errors.getByRole('row').nth(1)).toContainText('price');
    await expect(errors.getByRole('row').nth(1)).toContainText('Price Must Be A Number');
    await expect(errors.getByRole('row').nth(2)).toContainText('7');
    await expect(errors.getByRole('row').nth(2)).toContainText('Product Name Is Required');
    await expect(page.getByText('Would add 6, would update 0 parts.')).toBeVisible();
    await expectAccessible(page);
    expect(await partsTagged(request, tag)).toBe(0);

    // The real run: the six good rows, with the progress bar.
    await page.getByRole('checkbox', { name: /Dry run/ }).uncheck();
    await page.getByRole('button', { name: 'Import' }).click();
    const progress = page.getByRole('progressbar', { name: 'Import progress' });
    await expect(progress).toBeVisible();
    await expect(page.getByText('Import finished')).toBeVisible();
    await expect(progress).toHaveAttribute('aria-valuenow', '8');
    await expect(page.getByText('Added 6, updated 0 parts.')).toBeVisible();
    await expect(page.getByRole('table', { name: /Rows with errors \(not imported\)/ }).getByRole('row')).toHaveCount(
      3,
    );
    expect(await partsTagged(request, tag)).toBe(6);

    // A reload finds the import again; the page works on a phone too.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    await expect(page.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();
    await expect(page.getByText('Import finished')).toBeVisible();
    await expectAccessible(page);
  });
});
