import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessible, test } from './support/fixtures.ts';

/**
 * Search: suggestions under the parts list's search box work with the keyboard alone (WAI-ARIA combobox:
 * arrows, Enter, Escape, aria-activedescendant, an announced count), at phone and desktop widths; a search that
 * finds nothing offers a correction and the closest parts. Over the demo catalogue the e2e server seeds.
 */

const box = (page: Page) => page.getByRole('combobox', { name: 'Search parts' });

/** Arrow down until the active option is this one (at most one round of the list). */
async function arrowTo(page: Page, option: Locator): Promise<void> {
  const target = await option.getAttribute('id');
  const count = await page.getByRole('option').count();
  for (let i = 0; i < count; i++) {
    await page.keyboard.press('ArrowDown');
    if ((await box(page).getAttribute('aria-activedescendant')) === target) {
      await expect(option).toHaveAttribute('aria-selected', 'true');
      return;
    }
  }
  throw new Error(`never reached option ${target}`);
}

for (const viewport of [
  { width: 375, height: 800 },
  { width: 1280, height: 900 },
]) {
  test.describe(`search suggestions at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('are picked with the keyboard alone', async ({ page }) => {
      await page.goto('/allparts');
      await expect(page.getByRole('heading', { name: 'Parts', level: 1 })).toBeVisible();
      await box(page).focus();
      await page.keyboard.type('brak');
      const list = page.getByRole('listbox', { name: 'Search suggestions' });
      await expect(list).toBeVisible();
      await expect(box(page)).toHaveAttribute('aria-expanded', 'true');
      await expect(list.getByRole('group', { name: 'Parts' }).getByRole('option').first()).toBeVisible();
      // The count is announced.
      await expect(page.getByRole('status').filter({ hasText: /\d+ suggestions?\./ })).toBeAttached();
      await expect(list.getByRole('option', { name: /Sintered Brake Pads/ })).toBeVisible();
      await expectAccessible(page);
      // The list fits the screen.
      const bounds = await list.boundingBox();
      expect((bounds?.x ?? 0) + (bounds?.width ?? 0)).toBeLessThanOrEqual(viewport.width);

      // The arrows move the active option, which the box names; Escape closes the list and keeps the text.
      await page.keyboard.press('ArrowDown');
      const first = await box(page).getAttribute('aria-activedescendant');
      expect(first).toBeTruthy();
      await expect(page.locator(`[id="${first}"]`)).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('ArrowUp');
      await expect(box(page)).not.toHaveAttribute('aria-activedescendant', first ?? '');
      await page.keyboard.press('Escape');
      await expect(box(page)).toHaveAttribute('aria-expanded', 'false');
      await expect(list).toBeHidden();
      await expect(box(page)).toHaveValue('brak');

      // Down opens it again; Enter on a part opens that part.
      await page.keyboard.press('ArrowDown');
      await expect(list).toBeVisible();
      await page.keyboard.press('ArrowUp');
      await arrowTo(
        page,
        list.getByRole('group', { name: 'Parts' }).getByRole('option', { name: /Sintered Brake Pads/ }),
      );
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/part\/[0-9a-f-]{36}$/);
      await expect(page.getByText('Sintered Brake Pads').first()).toBeVisible();
    });

    test('pick a brand as the filter, and Enter without a pick searches what was typed', async ({ page }) => {
      await page.goto('/allparts');
      await box(page).focus();
      await page.keyboard.type('alpin');
      const brands = page.getByRole('group', { name: 'Brands' });
      await expect(brands.getByRole('option', { name: 'Alpinestars' })).toBeVisible();
      await arrowTo(page, brands.getByRole('option', { name: 'Alpinestars' }));
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/allparts\?brand=alpinestars$/);
      await expect(page.getByText(/^2 parts/)).toBeVisible();

      await page.goto('/allparts');
      await box(page).focus();
      await page.keyboard.type('brak pads');
      await expect(page.getByRole('listbox', { name: 'Search suggestions' })).toBeVisible();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/allparts\?q=brak\+pads$/);
      await expect(page.locator('.part-card').first().getByRole('heading')).toHaveText('Sintered Brake Pads');
      await expect(page.getByRole('combobox', { name: 'Sort by' }).locator('option:checked')).toHaveText('Best match');
    });

    test('a search that finds nothing offers a correction and the closest parts', async ({ page }) => {
      await page.goto(`/allparts?q=${encodeURIComponent('sintred brke pds')}`);
      await expect(page.getByText('No parts match “sintred brke pds”.')).toBeVisible();
      const correction = page.getByRole('button', { name: 'Sintered Brake Pads' });
      await expect(correction).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Sintered Brake Pads', level: 3 })).toBeVisible();
      await expectAccessible(page);
      await correction.focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/allparts\?q=Sintered\+Brake\+Pads$/);
      await expect(page.locator('.part-card').first().getByRole('heading')).toHaveText('Sintered Brake Pads');
    });
  });
}

test.describe('search with a vehicle chosen, at 375 px', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test.beforeEach(async ({ page }) => {
    // A visitor's garage lives in this browser: the 2019 Yamaha MT-07 is the current vehicle.
    const vehicles = (await (await page.request.get('/api/vehicle?year=2019&limit=100')).json()) as {
      id: string;
      label: string;
    }[];
    const mt07 = vehicles.find((vehicle) => vehicle.label === '2019 Yamaha MT-07');
    if (!mt07) throw new Error('no 2019 Yamaha MT-07 in the demo seed');
    await page.addInitScript((vehicle) => {
      const garage = { vehicles: [{ vehicleId: vehicle.id, name: null, vehicle }], currentVehicleId: vehicle.id };
      localStorage.setItem('redline.garage', JSON.stringify(garage));
    }, mt07);
  });

  test('the vehicle named in the box is the chosen one; suggestions and corrections fit it', async ({ page }) => {
    await page.goto('/allparts');
    await expect(page.getByText(/Showing parts that fit your/)).toBeVisible();
    await box(page).focus();
    await page.keyboard.type('mt07 exhaust');
    const list = page.getByRole('listbox', { name: 'Search suggestions' });
    await expect(list.getByRole('option', { name: /Exhaust Silencer/ })).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.locator('.part-card').first().getByRole('heading')).toHaveText('Exhaust Silencer');

    // The brake pads fit a YZ250F, not this MT-07: neither offered while typing nor as "Did you mean".
    await box(page).fill('');
    await page.keyboard.type('sintered');
    await expect(page.getByRole('status').filter({ hasText: 'No suggestions.' })).toBeAttached();
    await expect(list.getByRole('option', { name: /Sintered Brake Pads/ })).toHaveCount(0);
    await page.goto(`/allparts?q=${encodeURIComponent('sintred brke pds')}`);
    await expect(page.getByText(/No parts match “sintred brke pds” for your 2019 Yamaha MT-07/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sintered Brake Pads' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Sintered Brake Pads', level: 3 })).toHaveCount(0);
    await expectAccessible(page);
  });
});
