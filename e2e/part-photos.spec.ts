import type { APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import { signInAdminViaApi, signUpViaApi, useToken } from './support/accounts.ts';
import { expect, expectAccessible, expectHydrated, test } from './support/fixtures.ts';

/**
 * An admin uploads three photos to a part in Manage Products, picks the main one, and a customer sees them
 * as a gallery on the purchase screen (keyboard, zoom, Escape), at phone, tablet and desktop widths.
 */

/** Three test photos made here (no binary fixtures), each its own size and colour so they can be told apart. */
async function photoFiles() {
  const sizes = [
    { width: 900, height: 600, background: '#b22222' },
    { width: 700, height: 700, background: '#2e8b57' },
    { width: 1600, height: 1000, background: '#1e3a8a' },
  ];
  return Promise.all(
    sizes.map(async (size, index) => ({
      name: `photo-${index + 1}.${index === 1 ? 'png' : 'jpg'}`,
      mimeType: index === 1 ? 'image/png' : 'image/jpeg',
      buffer:
        index === 1
          ? await sharp({ create: { ...size, channels: 3 } })
              .png()
              .toBuffer()
          : await sharp({ create: { ...size, channels: 3 } })
              .jpeg()
              .toBuffer(),
    })),
  );
}

async function addPart(request: APIRequestContext, name: string): Promise<string> {
  const admin = await signInAdminViaApi(request);
  const res = await request.post('/api/part', {
    headers: { authorization: `Bearer ${admin.token}` },
    data: {
      name,
      desription: 'A part photographed for the gallery test.',
      img: '/images/parts/brake-disc.svg',
      price: 42,
      availablequantity: 20,
      minimunorder: 1,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

test('an admin uploads three photos and picks the main one; a customer sees the gallery', async ({
  page,
  browser,
  request,
}) => {
  // Three photos converted by sharp, two browsers and an accessibility check per gallery state: ~29 s alone on a
  // 2-core machine, 46–47 s under the rest of the suite (the default 45 s timed out there twice on 2026-11-26).
  test.slow();
  const name = `Pho ${Math.random().toString(36).slice(2, 8)}`;
  const partId = await addPart(request, name);
  const admin = await signInAdminViaApi(request);
  await useToken(page, admin.token);

  await page.goto(`/dashboard/manageproduct?q=${encodeURIComponent(name)}`);
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Product' });
  await dialog.getByLabel('Add photos').setInputFiles(await photoFiles());
  await expect(dialog.getByRole('status').filter({ hasText: '3 photos added.' })).toBeVisible({ timeout: 30_000 });
  const photos = dialog.getByRole('list', { name: 'Photos, in order' }).getByRole('listitem');
  await expect(photos).toHaveCount(3);
  await expect(photos.first().getByText('Main photo')).toBeVisible();

  // The third photo (the wide blue one) becomes the main one, with the keyboard alone.
  await dialog.getByRole('button', { name: 'Make main photo 3' }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog.getByText('Photo 3 is now the main photo.')).toBeVisible();
  // And the (now) last photo moves one place earlier by its button.
  await dialog.getByRole('button', { name: 'Move photo 3 earlier' }).click();
  await expect(dialog.getByText('Photo 3 moved to place 2.')).toBeVisible();
  await expectAccessible(page);
  // Saving the form afterwards keeps the main photo as the part's image (the link field followed it).
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Product Updated Successfully')).toBeVisible();

  const details = await (await request.get(`/api/part/${partId}`)).json();
  expect(details.photos).toHaveLength(3);
  expect(details.photos[0]).toMatchObject({ main: true, width: 1280, height: 800 });
  expect(details.img).toBe(details.photos[0].url);

  // The customer, in a browser of their own.
  const customer = await signUpViaApi(request);
  const context = await browser.newContext();
  const shopper = await context.newPage();
  await useToken(shopper, customer.token);
  for (const width of [375, 768, 1280]) {
    await shopper.setViewportSize({ width, height: 900 });
    await shopper.goto(`/part/${partId}`);
    const gallery = shopper.getByRole('region', { name: `Photos of ${name}` });
    const main = gallery.getByRole('button', { name: `Zoom in: ${name}, 1 of 3` });
    await expect(main).toBeVisible();
    // A phone downloads a small file, never the 1280 px one.
    const source = await main.locator('img').evaluate((img: HTMLImageElement) => img.currentSrc);
    expect(source, `at ${width} px`).toMatch(/-(320|640)\.webp$/);
    await expect(gallery.getByRole('button', { name: /^Show \d of 3$/ })).toHaveCount(3);

    // Arrow keys move through the photos once the app runs the gallery.
    await expectHydrated(shopper);
    await main.focus();
    await shopper.keyboard.press('ArrowRight');
    await expect(gallery.getByRole('button', { name: `Zoom in: ${name}, 2 of 3` })).toBeFocused();
    await gallery.getByRole('button', { name: 'Show 3 of 3' }).click();
    await gallery.getByRole('button', { name: `Zoom in: ${name}, 3 of 3` }).click();
    const zoom = shopper.getByRole('dialog', { name: `${name}, 3 of 3` });
    await expect(zoom.getByRole('img', { name: `${name}, 3 of 3` })).toBeVisible();
    // axe reads colours: only once the dialog has faded in.
    await expect(shopper.locator('.modal.show')).toHaveCSS('opacity', '1');
    await expectAccessible(shopper);
    await shopper.keyboard.press('Escape');
    await expect(zoom).toBeHidden();
  }
  await expectAccessible(shopper);
  await context.close();
});

test('Add A Product takes photos chosen before the product exists and uploads them once it is added', async ({
  page,
  request,
}) => {
  const admin = await signInAdminViaApi(request);
  await useToken(page, admin.token);
  const name = `New ${Math.random().toString(36).slice(2, 8)}`;
  await page.goto('/dashboard/addaproduct');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Price (USD per unit)').fill('19.5');
  await page.getByLabel('Available Quantity (PCS)').fill('10');
  await page.getByLabel('Minimum Order (PCS)').fill('1');
  const [first, second] = await photoFiles();
  await page.getByLabel('Add photos').setInputFiles([first, second].filter((file) => file !== undefined));
  await expect(page.getByText('2 photos chosen: uploaded when the product is added.')).toBeVisible();
  // No link typed: the no-photo picture stands in until the first upload replaces it.
  await expect(page.getByLabel('Photo URL')).toHaveValue('/images/parts/no-photo.svg');
  await page.getByRole('button', { name: 'Make main photo 2' }).click();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Add Item' }).click();
  await expect(page.getByText('Product Added Successfully')).toBeVisible({ timeout: 30_000 });

  const found = (await (await request.get(`/api/part?q=${encodeURIComponent(name)}`)).json()) as { _id: string }[];
  expect(found).toHaveLength(1);
  const details = await (await request.get(`/api/part/${found[0]?._id}`)).json();
  // The second file (the 700 px square PNG) was made main before saving; each is kept at its own width too.
  expect(details.photos.map((p: { width: number; height: number }) => [p.width, p.height])).toEqual([
    [700, 700],
    [900, 600],
  ]);
  expect(details.img).toBe(details.photos[0].url);

  // The browser may pick the 700 px file: the purchase screen's gallery lists it in its srcset.
  await page.goto(`/part/${found[0]?._id}`);
  const gallery = page.getByRole('region', { name: `Photos of ${name}` });
  await expect(gallery.getByRole('button', { name: `Zoom in: ${name}, 1 of 2` }).locator('img')).toHaveAttribute(
    'srcset',
    /-640\.webp 640w, \S+-700\.webp 700w$/,
  );
});
