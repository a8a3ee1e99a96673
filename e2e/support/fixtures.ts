import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

/**
 * Every browser test fails on a console error or an uncaught page error, as a person would notice a broken page.
 * Tests that provoke an error on purpose (a 4xx the page handles) list its text in `allowedConsoleErrors`.
 */
export const test = base.extend<{ allowedConsoleErrors: RegExp[]; consoleErrors: string[] }>({
  allowedConsoleErrors: [[], { option: true }],
  consoleErrors: [
    async ({ page, allowedConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const text = message.text();
        // The browser logs every failed HTTP status itself; the app's handling of it is what the test checks.
        if (/Failed to load resource: the server responded with a status of (4\d\d)/.test(text)) return;
        if (allowedConsoleErrors.some((pattern) => pattern.test(text))) return;
        errors.push(text);
      });
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      await use(errors);
      expect(errors, 'console errors on the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** axe must find no serious or critical violation on the page as it is now, once its transitions have ended. */
export async function expectAccessible(page: Page): Promise<void> {
  // axe reads colours as they are painted: a button still fading from its hover or focus colours (Bootstrap's
  // 0.15 s transitions) measured as too little contrast now and then. Chromium also re-applies :hover lazily after
  // the page changes under a still pointer (a button enabled again under it starts its hover fade a moment later,
  // which failed CI twice in a row), so the pointer is moved off the page first — a real move updates hover at once,
  // and off the page it hovers nothing (a toast under it would pause its auto-close for ever) — and then
  // every running CSS transition and animation that ends is awaited until two frames pass with none starting
  // (a cancelled one counts as finished; a spinner never ends).
  await page.mouse.move(-1, -1);
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    const running = () =>
      document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState === 'running' &&
            animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY,
        );
    for (let round = 0; round < 20; round++) {
      await Promise.all(running().map((animation) => animation.finished.catch(() => undefined)));
      await frame();
      await frame();
      if (running().length === 0) return;
    }
  });
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

/** A unique email for a test's own customer, so tests never share accounts. */
export function uniqueEmail(prefix = 'rider'): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
}

/**
 * Whether React has taken over every element of the page (ADR 024): each element React hydrated or rendered carries
 * its fiber (`__reactFiber$…`); the server's HTML of a Suspense boundary not hydrated yet does not. Runs in the page.
 */
export function pageIsHydrated(): boolean {
  const root = document.getElementById('root');
  const elements = root ? [...root.querySelectorAll('*')] : [];
  return (
    elements.length > 0 &&
    elements.every((element) => Object.keys(element).some((key) => key.startsWith('__reactFiber$')))
  );
}

/**
 * Waits until React has taken the whole page over, its Suspense boundaries too. A key press on a part not hydrated
 * yet reaches only the browser, so a test that drives a page by keyboard waits for this first.
 */
export async function expectHydrated(page: Page): Promise<void> {
  await page.waitForFunction(pageIsHydrated);
}

/**
 * Holds the answers to the requests `url` matches until `release()` (each then goes on to the server): what a page
 * shows while an answer is slow. `asked` settles once the first such request has been made.
 */
export async function holdRequests(
  page: Page,
  url: Parameters<Page['route']>[0],
): Promise<{ asked: Promise<void>; release: () => void }> {
  const released = Promise.withResolvers<void>();
  const asked = Promise.withResolvers<void>();
  await page.route(url, async (route) => {
    asked.resolve();
    await released.promise;
    await route.continue();
  });
  return { asked: asked.promise, release: () => released.resolve() };
}
