import type { APIRequestContext, ConsoleMessage, Page } from '@playwright/test';
import { signInAdminViaApi, signUpViaApi, useToken } from './support/accounts.ts';
import { expect, expectAccessible, expectHydrated, holdRequests, httpErrorMessage, test } from './support/fixtures.ts';

/*
 * The public pages arrive rendered by the server and React takes them over (hydration) without rendering
 * anything different: any hydration warning or error fails the test (the fixture fails on console errors; the
 * warnings are caught here), and the page answers clicks afterwards.
 */

const newTag = () => `s${Math.random().toString(36).slice(2, 7)}`;

let adminToken: Promise<string> | undefined;

async function addPart(request: APIRequestContext, name: string, price: number) {
  adminToken ??= signInAdminViaApi(request).then((admin) => admin.token);
  const res = await request.post('/api/part', {
    headers: { authorization: `Bearer ${await adminToken}` },
    data: {
      name,
      desription: 'A part for the server-rendering browser test.',
      img: '/images/parts/brake-disc.svg',
      price,
      availablequantity: 40,
      minimunorder: 1,
      brand: 'Brembo',
      mpn: 'SR-1',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { _id: string; name: string };
}

/** Two parts named after a new tag, "<tag> Pads" ($12.50) and "<tag> Lever" ($30): a list of its own to search. */
async function addPadsAndLever(request: APIRequestContext): Promise<string> {
  const tag = newTag();
  await addPart(request, `${tag} Pads`, 12.5);
  await addPart(request, `${tag} Lever`, 30);
  return tag;
}

/**
 * Holds the app's entry script at the network until the returned function is called: the page as it is before the app
 * runs. A module script holds DOMContentLoaded back, so a test goes to the page with `waitUntil: 'commit'`.
 */
async function holdAppScript(page: Page): Promise<() => void> {
  return (await holdRequests(page, /\/assets\/index-[\w-]+\.js$/)).release;
}

/** React's hydration complaints, in development words and production error numbers (#418, #423, #425…). */
const HYDRATION = /hydrat|did not match|#41[89]|#42[0-5]/i;

/** Collects every console message of the page that speaks of hydration, warnings included. */
function watchHydration(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (HYDRATION.test(message.text())) problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => {
    if (HYDRATION.test(error.message)) problems.push(`pageerror: ${error.message}`);
  });
  return problems;
}

/**
 * Remembers the server's elements before any script runs (readyState 'interactive' comes before the scripts start): the
 * first <h1>, the layout and every element of the page's <main>; and, the moment every element of the page carries
 * React's fiber (hydrated, before anything the app changes afterwards, e.g. for a signed-in visitor), which of them are
 * no longer in the page. So the test can check React kept those very elements instead of rendering the page again.
 */
async function rememberServerHeading(page: Page) {
  await page.addInitScript(() => {
    type Watched = { serverHeading: Element | null; serverElements: Element[]; lostAtHydration: string[] | null };
    const server = window as unknown as Watched;
    server.lostAtHydration = null;
    const hydrated = () => {
      const elements = [...(document.getElementById('root')?.querySelectorAll('*') ?? [])];
      return (
        elements.length > 0 &&
        elements.every((element) => Object.keys(element).some((key) => key.startsWith('__reactFiber$')))
      );
    };
    document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive') return;
      server.serverHeading = document.querySelector('main h1');
      const layout = document.querySelector('#root > *');
      server.serverElements = [...(layout ? [layout] : []), ...document.querySelectorAll('main *')];
      const watch = () => {
        if (!hydrated()) {
          setTimeout(watch, 0);
          return;
        }
        server.lostAtHydration = server.serverElements
          .filter((element) => !element.isConnected)
          .map((element) => element.outerHTML.slice(0, 80));
        if (server.serverElements[0] !== document.querySelector('#root > *')) server.lostAtHydration.push('the layout');
      };
      watch();
    });
  });
}

/** Hydrated, with the server's elements kept. */
async function expectHydratedKeepingServerElements(page: Page) {
  await expectHydrated(page);
  const kept = await page.evaluate(() => {
    const server = window as unknown as { serverHeading: Element | null; lostAtHydration: string[] | null };
    return {
      heading: Boolean(server.serverHeading?.isConnected && server.serverHeading === document.querySelector('main h1')),
      lost: server.lostAtHydration,
    };
  });
  expect(kept.heading, 'the server-rendered <h1> is the one on the page after hydration').toBe(true);
  expect(kept.lost, 'elements of the server-rendered page that hydration replaced').toEqual([]);
}

/** A phone's slower CPU: React is still hydrating the page's Suspense boundaries when the visitor presses. */
async function slowPhone(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  return cdp;
}

/**
 * Notes, at the visitor's first press (`pointerdown`, on the document in the capture phase: before React's listeners on
 * #root see it, and React hydrates the part pressed from that event on), whether the page and the element pressed were
 * hydrated; and marks the page, so a test sees whether it was loaded again.
 */
async function watchPresses(page: Page) {
  await page.evaluate(() => {
    const seen = window as unknown as Record<string, unknown>;
    seen.samePage = true;
    const hasFiber = (element: Element) => Object.keys(element).some((key) => key.startsWith('__reactFiber$'));
    document.addEventListener(
      'pointerdown',
      (event) => {
        if ('pageHydratedAtPress' in seen) return;
        seen.pageHydratedAtPress = [...(document.getElementById('root')?.querySelectorAll('*') ?? [])].every(hasFiber);
        seen.targetHydratedAtPress = event.target instanceof Element && hasFiber(event.target);
      },
      true,
    );
  });
}

async function pressesSeen(page: Page) {
  return page.evaluate(() => {
    const { samePage, pageHydratedAtPress, targetHydratedAtPress } = window as unknown as Record<string, unknown>;
    return { samePage, pageHydratedAtPress, targetHydratedAtPress };
  });
}

/**
 * Settles once React has hydrated the page's outer part (its layout carries React's fiber), before its Suspense
 * boundaries; that task then goes on until the test's press is waiting, as a slow phone's would, so the press is handled
 * before React's next turn at the boundaries (a browser runs input before other work). The check runs between React's own
 * tasks (a MessageChannel, as React's scheduler uses). A press by `page.mouse`, one input event: a locator's click
 * first waits for frames, by which time the boundaries may be hydrated too.
 */
function whenOuterPartHydrated(page: Page): Promise<void> {
  return page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          const layout = document.querySelector('#root > *');
          if (!layout || !Object.keys(layout).some((key) => key.startsWith('__reactFiber$'))) {
            channel.port2.postMessage(null);
            return;
          }
          resolve();
          // A microtask after the one that answers the test. Until the press is waiting (Chromium says so), 3 s at most.
          queueMicrotask(() => {
            const scheduling = (navigator as { scheduling?: { isInputPending?(): boolean } }).scheduling;
            const end = performance.now() + 3000;
            while (performance.now() < end && !scheduling?.isInputPending?.()) {
              // busy, as a slow phone is
            }
          });
        };
        channel.port2.postMessage(null);
      }),
  );
}

for (const width of [375, 1280]) {
  test.describe(`server-rendered pages at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('a part page hydrates without a warning and Add To Cart works', async ({ page, request }) => {
      const part = await addPart(request, `${newTag()} Disc`, 42.5);
      const problems = watchHydration(page);
      await rememberServerHeading(page);
      const response = await page.goto(`/part/${part._id}`);
      expect(response?.status()).toBe(200);
      expect(await response?.text()).toContain(`Purchase ${part.name}`);
      await expect(page.getByRole('heading', { name: `Purchase ${part.name}` })).toBeVisible();
      await expectHydratedKeepingServerElements(page);
      await expect(page).toHaveTitle(`Purchase ${part.name} | Redline Parts`);

      const cartLink = page.getByRole('link', { name: /^Cart, \d+ parts?$/ });
      await expect(cartLink).toHaveAccessibleName('Cart, 0 parts');
      await page.getByRole('button', { name: 'Add To Cart' }).click();
      await expect(cartLink).toHaveAccessibleName('Cart, 1 part');
      await expectAccessible(page);
      await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(2);
      // Moving inside the app: the head follows the page shown, and the part's JSON-LD goes.
      await page.getByRole('link', { name: 'Redline Parts' }).first().click();
      await expect(page).toHaveTitle('Redline Parts: vehicle and motorcycle parts');
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new URL('/', page.url()).href);
      await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(0);
      expect(problems).toEqual([]);
    });

    test('the parts list hydrates with its filters from the address, and searching works', async ({
      page,
      request,
    }) => {
      const tag = await addPadsAndLever(request);
      const problems = watchHydration(page);
      await rememberServerHeading(page);
      await page.goto(`/allparts?q=${tag}&sort=price_desc`);
      await expectHydratedKeepingServerElements(page);
      await expect(page.locator('.part-card')).toHaveCount(2);
      await expect(page.locator('.part-card').first().getByRole('heading')).toHaveText(`${tag} Lever`);

      await page.getByRole('combobox', { name: 'Search parts' }).fill(`${tag} Pads`);
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page).toHaveURL(new RegExp(`q=${tag}\\+Pads`));
      await expect(page.locator('.part-card')).toHaveCount(1);
      await expectAccessible(page);
      expect(problems).toEqual([]);
    });

    test('controls that only work with the app are disabled until hydrated; the search form works without it', async ({
      page,
      request,
    }) => {
      const part = await addPart(request, `${newTag()} Caliper`, 80);
      const release = await holdAppScript(page);
      await page.goto(`/part/${part._id}`, { waitUntil: 'commit' });
      await expect(page.getByRole('button', { name: 'Add To Cart' })).toBeDisabled();
      await expect(page.getByRole('button', { name: 'Place Order' })).toBeDisabled();
      await expect(page.getByPlaceholder('Add Quantity')).toBeDisabled();
      release();
      await expect(page.getByRole('button', { name: 'Add To Cart' })).toBeEnabled();
      await expect(page.getByPlaceholder('Add Quantity')).toBeEditable();

      // Before the app runs, the parts search is a plain GET of the list: the server renders what was asked for.
      const tag = await addPadsAndLever(request);
      const held = await holdAppScript(page);
      await page.goto('/allparts', { waitUntil: 'commit' });
      await page.getByRole('combobox', { name: 'Search parts' }).fill(`${tag} Lever`);
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page).toHaveURL(new RegExp(`q=${tag}\\+Lever`));
      await expect(page.locator('.part-card')).toHaveCount(1);
      await expect(page.getByRole('combobox', { name: 'Search parts' })).toHaveValue(`${tag} Lever`);
      held();
    });

    test('what a visitor types before the app runs and clicks before the page is hydrated is honoured (ADR 024)', async ({
      page,
      request,
    }) => {
      const tag = await addPadsAndLever(request);
      const cdp = await slowPhone(page);
      const release = await holdAppScript(page);
      const problems = watchHydration(page);
      await page.goto('/allparts', { waitUntil: 'commit' });
      // Typed while no script of the app has run: only the browser holds it.
      await page.getByRole('combobox', { name: 'Search parts' }).fill(`${tag} Lev`);
      await watchPresses(page);
      const button = await page.getByRole('button', { name: 'Search' }).boundingBox();
      if (!button) throw new Error('no Search button on the page');
      const outerHydrated = whenOuterPartHydrated(page);
      release();
      await outerHydrated;
      await page.mouse.click(button.x + button.width / 2, button.y + button.height / 2);
      await expect(page).toHaveURL(new RegExp(`q=${tag}\\+Lev`));
      // Visible cards: cards whose boundaries were still dehydrated when the list changed can stay in the DOM a while,
      // hidden by React, and are no part of what the visitor sees.
      const shown = page.locator('.part-card:visible');
      await expect(shown).toHaveCount(1);
      await expect(shown.getByRole('heading')).toHaveText(`${tag} Lever`);
      const seen = await pressesSeen(page);
      // The app searched (the page was not loaded again, as a plain GET would), with the text typed before it ran.
      expect(seen.samePage, 'the search ran in the app').toBe(true);
      expect(seen.pageHydratedAtPress, 'pressed before the page was hydrated').toBe(false);
      await expect(page.getByRole('combobox', { name: 'Search parts' })).toHaveValue(`${tag} Lev`);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      expect(problems).toEqual([]);
    });

    test('a click inside a Suspense boundary not hydrated yet reaches the app (ADR 024)', async ({ page }) => {
      const cdp = await slowPhone(page);
      const release = await holdAppScript(page);
      const problems = watchHydration(page);
      await page.goto('/allparts', { waitUntil: 'commit' });
      // The last card's boundary is the last one React hydrates.
      const link = page.locator('.part-card').last().getByRole('link').first();
      const href = await link.getAttribute('href');
      await link.scrollIntoViewIfNeeded();
      const box = await link.boundingBox();
      if (!box || !href) throw new Error('no link on the last card');
      await watchPresses(page);
      const outerHydrated = whenOuterPartHydrated(page);
      release();
      await outerHydrated;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      await expect(page.getByRole('heading', { name: /^Purchase / })).toBeVisible();
      const seen = await pressesSeen(page);
      expect(seen.targetHydratedAtPress, "pressed before the card's boundary was hydrated").toBe(false);
      // React hydrated the card when it was pressed and the router took the click: no page was loaded.
      expect(seen.samePage, 'the app went to the part').toBe(true);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      expect(problems).toEqual([]);
    });

    test('the home page, the blog and the portfolio hydrate without a warning', async ({ page }) => {
      const problems = watchHydration(page);
      await rememberServerHeading(page);
      for (const address of ['/', '/blog', '/myprotfolio']) {
        await page.goto(address);
        await expectHydratedKeepingServerElements(page);
      }
      // The last section is a boundary hydrated after the first pass: it works.
      await page.goto('/');
      await expectHydratedKeepingServerElements(page);
      await page.getByRole('button', { name: 'Contact Us' }).click();
      await expect(page.getByRole('dialog', { name: 'Contact Us' })).toBeVisible();
      await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      // Interactive: the home page's link goes to the parts list in the app, without loading a page.
      await page.getByRole('link', { name: 'Explore More' }).click();
      await expect(page).toHaveURL(/\/allparts$/);
      await expect(page.getByRole('heading', { name: 'Parts', level: 1 })).toBeVisible();
      await expect(page).toHaveTitle('Parts | Redline Parts');
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        'href',
        new URL('/allparts', page.url()).href,
      );
      expect(problems).toEqual([]);
    });

    test('an unknown address answers 404 with the not-found page', async ({ page, allowConsoleMessage }) => {
      allowConsoleMessage(httpErrorMessage(404, '/no-such-page-here'));
      const problems = watchHydration(page);
      await rememberServerHeading(page);
      const response = await page.goto('/no-such-page-here');
      expect(response?.status()).toBe(404);
      await expectHydratedKeepingServerElements(page);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page).toHaveTitle('Page Not Found | Redline Parts');
      await page.getByRole('link', { name: 'Back to home' }).click();
      await expect(page).toHaveURL(/\/$/);
      expect(problems).toEqual([]);
    });

    test('a signed-in customer gets the visitor page first, then their own, without a warning', async ({
      page,
      request,
    }) => {
      const part = await addPart(request, `${newTag()} Chain`, 55);
      const customer = await signUpViaApi(request);
      await useToken(page, customer.token);
      const problems = watchHydration(page);
      await rememberServerHeading(page);
      await page.goto(`/part/${part._id}`);
      await expectHydratedKeepingServerElements(page);
      // The menu is folded at 375 px: the signed-in user's address is there, if not on show.
      await expect(page.getByTestId('nav-user-email')).toHaveText(customer.email);
      expect(problems).toEqual([]);
    });
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a part page shows the part, its price and its purchase heading', async ({ page, request }) => {
    const part = await addPart(request, `${newTag()} Pump`, 99.95);
    await page.goto(`/part/${part._id}`);
    await expect(page.getByRole('heading', { name: `Purchase ${part.name}` })).toBeVisible();
    await expect(page.getByText('$99.95').first()).toBeVisible();
  });
});
