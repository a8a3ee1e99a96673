import type { Locator, Page } from '@playwright/test';
import { finishSignUpFromMail, signInAdminViaApi, signUpViaApi, useToken } from './support/accounts.ts';
import {
  expect,
  expectAccessible,
  expectHydrated,
  holdRequests,
  httpErrorMessage,
  test,
  uniqueEmail,
} from './support/fixtures.ts';
import { putInGarage } from './support/garage.ts';

/*
 * In the browser: the vehicle selector, the visitor's garage joining the account at sign-up, fit badges and
 * filters on the parts list, the purchase screen of a part that does not fit, My Garage, and an admin's fitment
 * reaching a customer. The demo seed has the 2019 Yamaha YZ250F: the chain, spark plug, brake pads and clutch lever
 * fit it, the helmet, gloves, boots, chest protector and pressure meter are universal, the exhaust silencer fits only
 * the Yamaha MT-07 and Ténéré 700.
 */

const YAMAHA = '2019 Yamaha YZ250F';
const BMW = '2021 BMW S 1000 RR M Package';

const shoppingFor = (page: Page) => page.getByRole('complementary', { name: 'Your vehicle' });
const card = (page: Page, name: string) => page.locator('.part-card', { has: page.getByRole('heading', { name }) });
const toast = (page: Page, text: string | RegExp) => page.locator('.Toastify').getByText(text).first();

/** Picks a vehicle in one selector (the form named `form`), step by step, as a person would. */
async function pickVehicle(
  form: Locator,
  vehicle: { type: string; year: string; make: string; model: string; variant?: string },
) {
  await form.getByLabel('Type', { exact: true }).selectOption({ label: vehicle.type });
  await form.getByLabel('Year', { exact: true }).selectOption({ label: vehicle.year });
  await form.getByLabel('Make', { exact: true }).selectOption({ label: vehicle.make });
  await form.getByLabel('Model', { exact: true }).selectOption({ label: vehicle.model });
  const variant = form.getByLabel('Variant', { exact: true });
  if (vehicle.variant) await variant.selectOption({ label: vehicle.variant });
  else {
    // One vehicle for that model year: nothing to choose, it is chosen.
    await expect(variant).toBeDisabled();
    await expect(variant.locator('option:checked')).toHaveText('Standard');
  }
  await form.getByRole('button', { name: 'Shop for this vehicle', exact: true }).click();
}

/** Nothing wider than the screen: no sideways scrolling on a phone. */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const viewport of [
  { width: 375, height: 800 },
  { width: 1280, height: 900 },
]) {
  const phone = viewport.width < 992;

  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('a visitor picks a vehicle, keeps a second one, signs up with both and shops with fit badges', async ({
      page,
    }) => {
      // One shopper's whole journey, in one browser: longer than one page's test.
      test.setTimeout(180_000);
      // 1. The home page's selector: Type → Year → Make → Model → Variant, each offering only what exists.
      await page.goto('/');
      const finder = page.getByRole('form', { name: 'Choose your vehicle' });
      await expect(finder.getByLabel('Year', { exact: true })).toBeDisabled();
      await expect(page.getByRole('link', { name: 'Explore More' })).toBeInViewport();
      await pickVehicle(finder, { type: 'Motorcycle', year: '2019', make: 'Yamaha', model: 'YZ250F' });
      await expect(shoppingFor(page)).toContainText(`Shopping for: ${YAMAHA}`);
      await expect(page.getByRole('link', { name: `See the parts that fit your ${YAMAHA}` })).toBeVisible();
      // The latest parts each say whether they fit.
      const latest = page.locator('section', { has: page.getByRole('heading', { name: 'Parts', exact: true }) });
      await expect(latest.locator('.part-card').first().locator('[data-fit]')).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectAccessible(page);

      // 2. As a visitor, the parts list: only what fits (universal parts included), each card saying so.
      await page.goto('/allparts');
      await expect(page.getByText(`Showing parts that fit your ${YAMAHA}, and universal parts.`)).toBeVisible();
      await expect(card(page, 'O-Ring Drive Chain')).toContainText(`Fits your ${YAMAHA}`);
      await expect(card(page, 'Full-Face Helmet')).toContainText('Universal fit');
      await expect(card(page, 'Exhaust Silencer')).toHaveCount(0);
      await expect(page.locator('.part-card [data-fit="doesNotFit"]')).toHaveCount(0);
      const fitting = await page.locator('.part-card').count();
      expect(fitting).toBeGreaterThanOrEqual(9);
      await expectNoSidewaysScroll(page);

      // 3. Filters with counts, in the URL; on a phone they live in a drawer.
      let filters: Locator;
      if (phone) {
        await expect(page.getByLabel('In stock only', { exact: false })).toBeHidden();
        await page.getByRole('button', { name: 'Filters', exact: true }).click();
        filters = page.getByRole('dialog', { name: 'Filters' });
      } else {
        filters = page.locator('.part-filters');
      }
      await expect(filters.getByRole('switch', { name: new RegExp(`^Fits my ${YAMAHA} \\(\\d+\\)$`) })).toBeChecked();
      await expect(filters.getByRole('radio', { name: /^Chains \(1\)$/ })).toBeVisible();
      await expectAccessible(page);
      await filters.getByRole('radio', { name: /^Chains \(/ }).check();
      await expect(page).toHaveURL(/category=chains/);
      if (phone) {
        await filters.getByRole('button', { name: /^Show 1 part$/ }).click();
        await expect(filters).toBeHidden();
      }
      await expect(page.locator('.part-card')).toHaveCount(1);
      await expect(card(page, 'O-Ring Drive Chain')).toBeVisible();
      // A price range, applied with its button, goes into the URL too.
      await page.goto('/allparts');
      if (phone) await page.getByRole('button', { name: 'Filters', exact: true }).click();
      await filters.getByLabel('Lowest price').fill('300');
      await filters.getByRole('button', { name: 'Apply price' }).click();
      await expect(page).toHaveURL(/minPrice=300/);
      if (phone) await filters.getByRole('button', { name: /^Show \d+ parts?$/ }).click();
      await expect(card(page, 'Riding Boots')).toBeVisible();
      await expect(card(page, 'O-Ring Drive Chain')).toHaveCount(0);
      await page.goto('/allparts');

      // 4. A part number in any spelling finds the part.
      for (const spelling of ['kmc 520', 'KMC-520', 'kmc520']) {
        await page.getByRole('combobox', { name: 'Search parts' }).fill(spelling);
        await page.getByRole('button', { name: 'Search', exact: true }).click();
        await expect(page.locator('.part-card')).toHaveCount(1);
        await expect(card(page, 'O-Ring Drive Chain')).toContainText('Part No. KMC-520');
      }
      await page.goto('/allparts');

      // 5. 'Show all parts': the rest appear, saying they do not fit.
      await page.getByRole('button', { name: 'Show all parts' }).click();
      await expect(page).toHaveURL(/fits=false/);
      await expect(page.getByText('Showing all parts.')).toBeVisible();
      await page.goto('/allparts?fits=false&q=Exhaust');
      const silencer = card(page, 'Exhaust Silencer');
      await expect(silencer).toContainText(`Does not fit your ${YAMAHA}`);

      // 6. The part that does not fit: which vehicles it fits and its full fitment, still as a visitor.
      await silencer.getByRole('link', { name: 'Purchase Exhaust Silencer' }).click();
      await expect(page.getByRole('heading', { name: 'Purchase Exhaust Silencer' })).toBeVisible();
      await expect(page.locator('.part-card')).toContainText(`Does not fit your ${YAMAHA}`);
      await expect(page.getByText('It fits: Yamaha MT-07 2014–2025; Yamaha Ténéré 700 2019–2025.')).toBeVisible();
      const fitment = page.getByRole('region', { name: 'Vehicle Fitment' });
      await expect(fitment.getByRole('term')).toHaveText(['Yamaha']);
      await expect(fitment.getByRole('listitem')).toHaveText(['MT-07: 2014–2025', 'Ténéré 700: 2019–2025']);
      await expectNoSidewaysScroll(page);
      await expectAccessible(page);

      const silencerPage = page.url();

      // 7. A second vehicle, with a variant, through 'Change'; then back to the first from the garage.
      await shoppingFor(page).getByRole('button', { name: 'Change vehicle' }).click();
      const switcher = page.getByRole('dialog', { name: 'Choose your vehicle' });
      await expect(switcher.getByText(YAMAHA)).toBeVisible();
      await pickVehicle(switcher.getByRole('form', { name: 'Choose another vehicle' }), {
        type: 'Motorcycle',
        year: '2021',
        make: 'BMW',
        model: 'S 1000 RR',
        variant: 'M Package',
      });
      await expect(switcher).toBeHidden();
      await expect(shoppingFor(page)).toContainText(`Shopping for: ${BMW}`);
      await shoppingFor(page).getByRole('button', { name: 'Change vehicle' }).click();
      await expectAccessible(page);
      await switcher.getByRole('button', { name: `Shop for this vehicle: ${YAMAHA}` }).click();
      await expect(shoppingFor(page)).toContainText(`Shopping for: ${YAMAHA}`);

      // 8. Only now sign up: the browser's garage joins the account's, and the current vehicle stays the current one.
      const email = uniqueEmail('garage');
      await page.goto('/register');
      await page.getByLabel('Name').fill('Gary Garage');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('Rides-A-Yamaha-2019');
      await page.getByRole('button', { name: 'SignUp' }).click();
      await finishSignUpFromMail(page, email);
      await expect(page).toHaveURL(/\/$/);
      await expect(shoppingFor(page)).toContainText(`Shopping for: ${YAMAHA}`);
      await expect.poll(() => page.evaluate(() => localStorage.getItem('redline.garage'))).toBeNull();

      // 9. Back at the part that does not fit, signed in: one question before ordering.
      await page.goto(silencerPage);
      await expect(page.getByRole('heading', { name: 'Purchase Exhaust Silencer' })).toBeVisible();
      await page.getByLabel('Address').fill('9 Paddock Row');
      await page.getByLabel('Phone Number').fill('555 0199');
      await page.getByRole('button', { name: 'Place Order' }).click();
      const question = page.getByRole('dialog', { name: `Does not fit your ${YAMAHA}. Order it anyway?` });
      await expect(question).toBeVisible();
      await question.getByRole('button', { name: 'Cancel' }).click();
      await expect(question).toBeHidden();
      await expect(page.getByText('Your Order Has Been Placed')).toHaveCount(0);
      await page.getByRole('button', { name: 'Place Order' }).click();
      await question.getByRole('button', { name: 'Order Anyway' }).click();
      await expect(toast(page, 'Your Order Has Been Placed')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Go to My Order to pay' })).toBeVisible();
      // Asked once: the next order of this part goes straight through.
      const second = page.waitForResponse((r) => r.url().endsWith('/api/myorder') && r.request().method() === 'POST');
      await page.getByRole('button', { name: 'Place Order' }).click();
      expect((await second).status()).toBe(201);
      await expect(question).toBeHidden();

      // 10. My Garage has both vehicles; name one, shop for it, and clear the current vehicle.
      await page.goto('/dashboard/mygarage');
      await expect(page.getByRole('heading', { name: 'My Garage', level: 1 })).toBeVisible();
      const garage = page.getByRole('list', { name: 'Vehicles in My Garage' });
      // Both joined the account in one merge (same moment), so their order is the server's.
      await expect(garage.getByRole('heading', { level: 2 })).toHaveCount(2);
      expect((await garage.getByRole('heading', { level: 2 }).allTextContents()).sort()).toEqual([BMW, YAMAHA].sort());
      const yamaha = garage.getByRole('article', { name: YAMAHA });
      const bmw = garage.getByRole('article', { name: BMW });
      await expect(yamaha.getByText('Current vehicle')).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectAccessible(page);
      await bmw.getByLabel('Nickname').fill('Track bike');
      await bmw.getByRole('button', { name: 'Save Name' }).click();
      await expect(toast(page, 'Saved the name “Track bike”')).toBeVisible();
      await expect(bmw).toContainText('“Track bike”');
      await bmw.getByRole('button', { name: `Shop for this vehicle: ${BMW}` }).click();
      await expect(bmw.getByText('Current vehicle')).toBeVisible();
      await expect(shoppingFor(page)).toContainText(`Shopping for: ${BMW}`);
      await shoppingFor(page).getByRole('button', { name: 'Clear vehicle' }).click();
      await expect(shoppingFor(page)).toContainText('Shopping for: any vehicle');
      await expect(page.getByText('Current vehicle')).toHaveCount(0);
    });

    test('an admin adds a vehicle and fits a part to it, and the customer sees it fit', async ({ page, browser }) => {
      test.slow();
      const tag = Math.random().toString(36).slice(2, 7);
      const make = `Tm${tag}`;
      const model = `X${tag}`;
      const admin = await signInAdminViaApi(page.request);
      const created = await page.request.post('/api/part', {
        headers: { authorization: `Bearer ${admin.token}` },
        data: {
          name: `Fit ${tag}`,
          desription: 'A part whose fitment the admin adds in the browser',
          price: 19.5,
          availablequantity: 40,
          minimunorder: 1,
          img: '/images/parts/brake-pads.svg',
        },
      });
      expect(created.status(), await created.text()).toBe(201);
      const part = (await created.json()) as { _id: string; name: string };

      // The admin's Vehicles page: a make, a model, and two model years.
      await useToken(page, admin.token);
      await page.goto('/dashboard/vehicles');
      await expect(page.getByRole('heading', { name: 'Vehicles', level: 1 })).toBeVisible();
      await page.getByLabel('New make').fill(make);
      await page.getByRole('button', { name: 'Add Make' }).click();
      await expect(toast(page, `${make} was added`)).toBeVisible();
      await expect(page.getByLabel('Make', { exact: true })).toHaveValue(/.+/);
      await page.getByLabel('New model').fill(model);
      await page.getByLabel('Type', { exact: true }).selectOption({ label: 'Motorcycle' });
      await page.getByRole('button', { name: 'Add Model' }).click();
      await expect(toast(page, `${make} ${model} was added`)).toBeVisible();
      await page.getByLabel('Year From').fill('2022');
      await page.getByLabel('Year To').fill('2023');
      await page.getByRole('button', { name: 'Add Years' }).click();
      await expect(toast(page, '2 years of this model ready')).toBeVisible();
      await expect(page.getByRole('list', { name: 'Years and variants' }).getByRole('listitem')).toHaveText([
        /2023 · Standard/,
        /2022 · Standard/,
      ]);
      await expectNoSidewaysScroll(page);
      await expectAccessible(page);

      // Manage Products: the part is among those with no fitment yet; a fitment row for the new vehicle.
      await page.goto(`/dashboard/manageproduct?q=${tag}&fitment=none`);
      await expect(page.getByLabel('No fitment yet')).toBeChecked();
      const product = card(page, part.name);
      await product.getByRole('button', { name: `Edit ${part.name}` }).click();
      const editor = page.getByRole('dialog', { name: 'Edit Product' });
      await editor.getByRole('button', { name: 'Add Fitment Row' }).click();
      await editor.getByLabel('Make (row 1)').selectOption({ label: make });
      await editor.getByLabel('Model (row 1)').selectOption({ label: model });
      await editor.getByLabel('Year From (row 1)').selectOption('2022');
      await editor.getByLabel('Year To (row 1)').selectOption('2023');
      await editor.getByLabel('Manufacturer Part Number (MPN)').fill(`FT-${tag}`);
      await editor.getByLabel('Brand').fill(`Brand ${tag}`);
      await editor.getByLabel('OEM Numbers').fill(`OEM-${tag}-1\nOEM-${tag}-2`);
      await editor.getByLabel('Category').selectOption({ label: 'Brakes › Pads' });
      await expectAccessible(page);
      await editor.getByRole('button', { name: 'Save Changes' }).click();
      await expect(toast(page, 'Product Updated Successfully')).toBeVisible();
      await expect(editor).toBeHidden();
      await expect(page.getByText('No products match')).toBeVisible();
      const saved = await (await page.request.get(`/api/part/${part._id}`)).json();
      expect(saved).toMatchObject({
        mpn: `FT-${tag}`,
        brand: { name: `Brand ${tag}` },
        oemNumbers: [`OEM-${tag}-1`, `OEM-${tag}-2`],
        category: { slug: 'brake-pads', path: ['Brakes', 'Pads'] },
        universal: false,
        fitment: [{ make, model, ranges: [{ yearFrom: 2022, yearTo: 2023, variant: null }] }],
      });

      // The customer picks the new vehicle and sees the part fit it, on the list and on its purchase screen.
      const customer = await signUpViaApi(page.request);
      const context = await browser.newContext({ viewport });
      const shopper = await context.newPage();
      await useToken(shopper, customer.token);
      await shopper.goto('/');
      await pickVehicle(shopper.getByRole('form', { name: 'Choose your vehicle' }), {
        type: 'Motorcycle',
        year: '2023',
        make,
        model,
      });
      const label = `2023 ${make} ${model}`;
      await expect(shoppingFor(shopper)).toContainText(`Shopping for: ${label}`);
      await shopper.goto(`/allparts?q=${encodeURIComponent(`ft ${tag}`)}`);
      await expect(card(shopper, part.name)).toContainText(`Fits your ${label}`);
      await card(shopper, part.name)
        .getByRole('link', { name: `Purchase ${part.name}` })
        .click();
      await expect(shopper.locator('.part-card')).toContainText(`Fits your ${label}`);
      await expect(shopper.getByRole('region', { name: 'Vehicle Fitment' })).toContainText(`${model}: 2022–2023`);
      await context.close();
    });
  });
}

test('a signed-in part page keeps the part and the order typed while its fit is checked, and still asks first', async ({
  page,
}) => {
  // The server renders the part for no vehicle; the account's vehicle is known only once its garage has loaded.
  // Until the part's answer for that vehicle arrives (held here), the page must stay as it is: it used to go back to
  // its skeleton, making the order form anew and emptying what the customer had typed.
  const customer = await signUpViaApi(page.request);
  const yamahaId = await putInGarage(page.request, customer.token, YAMAHA);
  const [silencer] = (await (await page.request.get('/api/part?q=Exhaust%20Silencer')).json()) as { _id: string }[];
  if (!silencer) throw new Error('no Exhaust Silencer in the demo seed');
  await useToken(page, customer.token);

  const fitAnswer = await holdRequests(
    page,
    (url) => url.pathname === `/api/part/${silencer._id}` && url.searchParams.get('vehicle') === yamahaId,
  );
  // Every order form the page ever took away.
  await page.addInitScript(() => {
    const removed: string[] = [];
    (window as unknown as { removedForms: string[] }).removedForms = removed;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.removedNodes) {
          if (node instanceof Element && (node.matches('form') || node.querySelector('form'))) {
            removed.push(node.outerHTML.slice(0, 80));
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });

  await page.goto(`/part/${silencer._id}`);
  await expect(page.getByRole('heading', { name: 'Purchase Exhaust Silencer' })).toBeVisible();
  await expectHydrated(page);
  await fitAnswer.asked;
  await page.getByLabel('Address').fill('9 Paddock Row');
  await page.getByLabel('Phone Number').fill('555 0199');
  await page.getByRole('button', { name: 'Place Order' }).click();
  const question = page.getByRole('dialog', { name: `Does not fit your ${YAMAHA}. Order it anyway?` });
  // Held until the fit is known: no question yet, and no order.
  await expect(page.getByRole('button', { name: 'Place Order' })).toBeDisabled();
  await expect(page.getByText('Placing the order')).toBeAttached();
  await expect(question).toHaveCount(0);

  fitAnswer.release();
  await expect(question).toBeVisible();
  await question.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('.part-card')).toContainText(`Does not fit your ${YAMAHA}`);
  await expect(page.getByLabel('Address')).toHaveValue('9 Paddock Row');
  await expect(page.getByLabel('Phone Number')).toHaveValue('555 0199');
  expect(await page.evaluate(() => (window as unknown as { removedForms: string[] }).removedForms)).toEqual([]);
});

test("a visitor's vehicle: the home page's latest parts stay on the screen while their fit is asked for", async ({
  page,
}) => {
  // The server renders the home page for no vehicle; the visitor's vehicle is in this browser. The six newest parts
  // are the same for any vehicle, so they stay while the vehicle's answer (held here) loads: no skeletons.
  const vehicles = (await (await page.request.get('/api/vehicle?year=2019&limit=100')).json()) as {
    id: string;
    label: string;
  }[];
  const yamaha = vehicles.find((vehicle) => vehicle.label === YAMAHA);
  if (!yamaha) throw new Error(`no ${YAMAHA} in the demo seed`);
  await page.addInitScript((vehicle) => {
    const garage = { vehicles: [{ vehicleId: vehicle.id, name: null, vehicle }], currentVehicleId: vehicle.id };
    localStorage.setItem('redline.garage', JSON.stringify(garage));
  }, yamaha);
  const fitAnswer = await holdRequests(page, (url) => url.pathname === '/api/part' && url.searchParams.has('vehicle'));
  await page.goto('/');
  const latest = page.locator('section', { has: page.getByRole('heading', { name: 'Parts', exact: true }) });
  await expect(latest.locator('.part-card')).toHaveCount(6);
  await fitAnswer.asked;
  await expect(shoppingFor(page)).toContainText(`Shopping for: ${YAMAHA}`);
  await expect(latest.getByRole('status', { name: 'Loading the latest parts' })).toHaveCount(0);
  await expect(latest.locator('.part-card')).toHaveCount(6);
  await expect(latest.locator('[data-fit]')).toHaveCount(0);
  fitAnswer.release();
  await expect(latest.locator('.part-card [data-fit]')).toHaveCount(6);
});

test('a vehicle deleted since a visitor chose it is forgotten, and the home page works again', async ({
  page,
  allowConsoleMessage,
}) => {
  const tag = Math.random().toString(36).slice(2, 7);
  const admin = await signInAdminViaApi(page.request);
  const auth = { authorization: `Bearer ${admin.token}` };
  const make = (await (
    await page.request.post('/api/vehicle/make', { headers: auth, data: { name: `Gone${tag}` } })
  ).json()) as {
    id: string;
  };
  const model = (await (
    await page.request.post('/api/vehicle/model', {
      headers: auth,
      data: { makeId: make.id, name: `G${tag}`, type: 'scooter' },
    })
  ).json()) as { id: string };
  const [vehicle] = (await (
    await page.request.post('/api/vehicle', {
      headers: auth,
      data: { modelId: model.id, yearFrom: 2024, yearTo: 2024 },
    })
  ).json()) as { id: string; label: string }[];
  if (!vehicle) throw new Error('no vehicle was added');
  // The page asks about the deleted vehicle once more before it forgets it: both answers are 404.
  allowConsoleMessage(httpErrorMessage(404, `/api/vehicle/${vehicle.id}`));
  allowConsoleMessage(httpErrorMessage(404, `/api/part?sort=newest&limit=6&vehicle=${vehicle.id}`));

  await page.goto('/');
  await pickVehicle(page.getByRole('form', { name: 'Choose your vehicle' }), {
    type: 'Scooter',
    year: '2024',
    make: `Gone${tag}`,
    model: `G${tag}`,
  });
  await expect(shoppingFor(page)).toContainText(`Shopping for: ${vehicle.label}`);

  const deleted = await page.request.delete(`/api/vehicle/${vehicle.id}`, { headers: auth });
  expect(deleted.status()).toBe(204);
  await page.reload();
  // The server's page knows no vehicle, so what follows holds before the app has run too: the app forgets the gone
  // vehicle once its question about it comes back 404, a moment later.
  await expect(shoppingFor(page)).toHaveCount(0);
  const latest = page.locator('section', { has: page.getByRole('heading', { name: 'Parts', exact: true }) });
  // Six cards, each with its Purchase control: a link, or a disabled button for a part another test sold out.
  await expect(latest.getByLabel(/^Purchase /)).toHaveCount(6);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('redline.garage'))).toBeNull();
  await expect(shoppingFor(page)).toHaveCount(0);
});
