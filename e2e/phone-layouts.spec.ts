import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessible, expectHydrated, test } from './support/fixtures.ts';

/*
 * Phone layouts: the parts list shows its search on a phone's first screen, with or without a vehicle, and its
 * vehicle finder stays one tap (or key press) away.
 */

const PHONE = { width: 375, height: 667 };

const searchBox = (page: Page) => page.getByRole('combobox', { name: 'Search parts' });
const shoppingFor = (page: Page) => page.getByRole('complementary', { name: 'Your vehicle' });

async function top(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on the page');
  return box.y;
}

/** Picks a one-variant vehicle step by step in the form `form`, and shops for it. */
async function pickVehicle(form: Locator, vehicle: { year: string; make: string; model: string }) {
  await form.getByLabel('Type', { exact: true }).selectOption({ label: 'Motorcycle' });
  await form.getByLabel('Year', { exact: true }).selectOption({ label: vehicle.year });
  await form.getByLabel('Make', { exact: true }).selectOption({ label: vehicle.make });
  await form.getByLabel('Model', { exact: true }).selectOption({ label: vehicle.model });
  await expect(form.getByLabel('Variant', { exact: true })).toBeDisabled();
  await form.getByRole('button', { name: 'Shop for this vehicle', exact: true }).click();
}

test.describe('parts list at 375 px', () => {
  test.use({ viewport: PHONE });

  test('the search is on the first screen without a vehicle; the finder opens by keyboard and is used', async ({
    page,
  }) => {
    await page.goto('/allparts');
    await expect(searchBox(page)).toBeVisible();
    expect(await top(searchBox(page))).toBeLessThan(PHONE.height);
    // The finder waits behind one button, closed.
    const finder = page.getByRole('form', { name: 'Choose your vehicle' });
    await expect(finder).toBeHidden();
    const toggle = page.getByRole('button', { name: /^Choose your vehicle/ });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expectHydrated(page);
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(finder).toBeVisible();
    await expectAccessible(page);
    await pickVehicle(finder, { year: '2019', make: 'Yamaha', model: 'MT-07' });
    await expect(shoppingFor(page)).toContainText('Shopping for: 2019 Yamaha MT-07');
    await expect(page.getByText('Showing parts that fit your 2019 Yamaha MT-07, and universal parts.')).toBeVisible();
    expect(await top(searchBox(page))).toBeLessThan(PHONE.height);
  });

  test('with a vehicle, one line names it above the search; Change opens the finder', async ({ page }) => {
    // Chosen on the home page.
    await page.goto('/');
    await pickVehicle(page.getByRole('form', { name: 'Choose your vehicle' }), {
      year: '2019',
      make: 'Yamaha',
      model: 'MT-07',
    });
    await expect(shoppingFor(page)).toContainText('Shopping for: 2019 Yamaha MT-07');
    await page.goto('/allparts');
    await expect(page.getByText('Showing parts that fit your 2019 Yamaha MT-07, and universal parts.')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Choose your vehicle/ })).toHaveCount(0);
    expect(await top(searchBox(page))).toBeLessThan(PHONE.height);

    // One line: the vehicle's name and its buttons side by side.
    const bar = shoppingFor(page);
    const text = bar.getByText('Shopping for:');
    const change = bar.getByRole('button', { name: 'Change vehicle' });
    const [textBox, changeBox] = [await text.boundingBox(), await change.boundingBox()];
    if (!textBox || !changeBox) throw new Error('the bar is not on the page');
    expect(changeBox.y).toBeLessThan(textBox.y + textBox.height);
    expect(textBox.y).toBeLessThan(changeBox.y + changeBox.height);

    // Change, by keyboard: the finder, used to shop for another vehicle.
    await expectHydrated(page);
    await change.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Choose your vehicle' });
    await pickVehicle(dialog.getByRole('form', { name: 'Choose another vehicle' }), {
      year: '2019',
      make: 'Yamaha',
      model: 'YZ250F',
    });
    await expect(dialog).toBeHidden();
    await expect(bar).toContainText('Shopping for: 2019 Yamaha YZ250F');
    await expect(page.getByText('Showing parts that fit your 2019 Yamaha YZ250F, and universal parts.')).toBeVisible();
    expect(await top(searchBox(page))).toBeLessThan(PHONE.height);
  });
});

test.describe('parts list at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('without a vehicle the finder is open under the search', async ({ page }) => {
    await page.goto('/allparts');
    const finder = page.getByRole('form', { name: 'Choose your vehicle' });
    await expect(finder).toBeVisible();
    await expect(page.getByRole('button', { name: /^Choose your vehicle/ })).toBeHidden();
    expect(await top(searchBox(page))).toBeLessThan(await top(finder));
  });
});
