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
    // The products form comes first; the vehicles form below has a dry run of its own.
    const dryRun = page.getByRole('checkbox', { name: /Dry run/ }).first();
    await page.getByLabel('CSV file', { exact: true }).setInputFiles(file);
    await expect(dryRun).toBeChecked();
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
    await dryRun.uncheck();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
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

    // The history keeps both runs: when, who, which file, rows added, updated and refused, how each ended.
    const history = page.getByRole('list', { name: 'Past imports' });
    const latest = history.getByRole('listitem').first();
    await expect(latest).toContainText(`Import of ${tag}.csv`);
    await expect(latest).toContainText('Finished');
    await expect(latest).toContainText(`by ${admin.email}`);
    await expect(latest).toContainText('8 rows: 6 added, 0 updated, 2 refused');
    const dryRunEntry = history.getByRole('listitem').nth(1);
    await expect(dryRunEntry).toContainText(`Check of ${tag}.csv`);
    await expect(dryRunEntry).toContainText('6 would be added, 0 would be updated, 2 refused');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });

  test('an admin imports vehicles by CSV on a phone: a dry run lists the bad rows, then a good file goes in whole', async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    const admin = await signInAdminViaApi(request);
    await useToken(page, admin.token);
    const make = `Vimport${Math.random().toString(36).slice(2, 7)}`;
    // The dashboard's menu on a phone is another test's subject: the page is opened by its address.
    await page.goto('/dashboard/importproducts');
    const section = page.getByRole('region', { name: 'Import Vehicles' });
    await expect(section).toBeVisible();
    const upload = async (name: string, lines: string[]) =>
      section
        .getByLabel('Vehicles CSV file')
        .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });

    // A semicolon file with two bad rows: the dry run lists both by line, nothing is written.
    await upload('bad.csv', [
      'type;make;model;years;variant',
      `car;${make};Coupe;2019-2021;`,
      `;${make};Sedan;2020;`,
      `car;${make};Van;20-21;`,
    ]);
    await expect(section.getByRole('checkbox', { name: /Dry run/ })).toBeChecked();
    await section.getByRole('button', { name: 'Check Vehicles' }).click();
    await expect(section.getByText('2 errors in 3 rows: fix them before importing.')).toBeVisible();
    const errors = section.getByRole('table', { name: 'Rows with errors' });
    await expect(errors.getByRole('row')).toHaveCount(3);
    await expect(errors.getByRole('row').nth(1)).toContainText('Type Is Required For A New Model (Sedan)');
    await expect(errors.getByRole('row').nth(2)).toContainText('Years Must Be Like 2019 Or 2019-2023');
    await expectAccessible(page);

    // The good file: checked, then imported in one go.
    await upload('good.csv', [
      'type,make,model,years,variant',
      `car,${make},Coupe,2019-2021,`,
      `car,${make},Coupe,2021,GT`,
    ]);
    await section.getByRole('button', { name: 'Check Vehicles' }).click();
    await expect(
      section.getByText('Check finished: would add 1 make, 1 model and 4 model years (0 already there).'),
    ).toBeVisible();
    const makes = async () =>
      ((await (await request.get('/api/vehicle/makes')).json()) as { name: string }[]).map((m) => m.name);
    expect(await makes()).not.toContain(make);
    await section.getByRole('checkbox', { name: /Dry run/ }).uncheck();
    await section.getByRole('button', { name: 'Import Vehicles' }).click();
    await expect(
      section.getByText('Imported: added 1 make, 1 model and 4 model years (0 already there).'),
    ).toBeVisible();
    expect(await makes()).toContain(make);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectAccessible(page);
  });
});
