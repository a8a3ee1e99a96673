import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, test as base, expect, type Page } from '@playwright/test';

/**
 * Every browser test fails on a console warning or error, or an uncaught page error, in any page it opens (its
 * `page`, another page of its context, or a page of a context it makes with `browser.newContext()`): a clean console
 * is part of a working page, and a warning today (a missing fallback, a preload never used) is a bug tomorrow.
 * The browser's own "Failed to load resource" line for a 4xx counts too (with the address added), so an app that
 * asks for something it may not have is noticed.
 *
 * A test that provokes a message on purpose (an unknown address's 404, a wrong password's 401, a 503 it fakes) says
 * so with a pattern for exactly that message: `allowConsoleMessage(/…/)` in the test, or `allowedConsoleErrors` with
 * `test.use` for a whole describe. Keep each as narrow as the message, with its status and address.
 */
export const test = base.extend<{
  allowedConsoleErrors: RegExp[];
  allowConsoleMessage: (pattern: RegExp) => void;
  consoleMessages: { messages: string[]; allowed: RegExp[] };
}>({
  allowedConsoleErrors: [[], { option: true }],
  consoleMessages: [
    async ({ context, browser, allowedConsoleErrors }, use) => {
      const messages: string[] = [];
      const allowed = [...allowedConsoleErrors];
      const watch = (watched: BrowserContext) => {
        watched.on('console', (message) => {
          const type = message.type();
          if (type !== 'error' && type !== 'warning') return;
          // The browser logs a failed request's status without its address; the address is the message's location.
          const where = message.location().url;
          const text =
            where && /^Failed to load resource/.test(message.text()) ? `${message.text()} (${where})` : message.text();
          messages.push(`${type}: ${text} [${message.page()?.url() ?? 'no page'}]`);
        });
        watched.on('weberror', (error) =>
          messages.push(`pageerror: ${error.error().message} [${error.page()?.url() ?? 'no page'}]`),
        );
      };
      watch(context);
      // Contexts the test makes itself are watched too, for as long as the test runs.
      const newContext = browser.newContext;
      browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
        const made = await newContext.apply(browser, args);
        watch(made);
        return made;
      };
      try {
        await use({ messages, allowed });
      } finally {
        browser.newContext = newContext;
      }
      const unexpected = messages.filter((message) => !allowed.some((pattern) => pattern.test(message)));
      expect(unexpected, 'console warnings and errors on the pages the test visited').toEqual([]);
    },
    { auto: true },
  ],
  allowConsoleMessage: async ({ consoleMessages }, use) => {
    await use((pattern) => consoleMessages.allowed.push(pattern));
  },
});

export { expect };

/**
 * The browser's console line for an HTTP error the test provokes on purpose: this status, for this address (its
 * path, and a query if given; or a pattern of paths, for a session whose every read is refused once it has ended),
 * on any page. For `allowConsoleMessage`.
 */
export function httpErrorMessage(status: number, path: string | RegExp): RegExp {
  const address = typeof path === 'string' ? path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : path.source;
  return new RegExp(
    `^error: Failed to load resource: the server responded with a status of ${status} \\([^)]*\\) \\(https?://[^/]+${address}\\)`,
  );
}

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
