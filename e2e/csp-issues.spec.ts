import { expect, expectHydrated, test } from './support/fixtures.ts';

/*
 * Lighthouse's best-practices score drops below 100 for any issue Chromium raises about a page. A CSP
 * violation raises no console message (the fixture would not see it), only a DevTools issue: zod's `new Function`
 * probe was one on every page until every zod import of the browser build went through src/web/zod-config.ts.
 */

test('the public pages raise no Content-Security-Policy issue', async ({ page, request }) => {
  const listed = await request.get('/api/part?limit=1');
  const [first] = (await listed.json()) as { _id: string }[];
  expect(first, 'the demo catalogue has a part').toBeDefined();

  const cdp = await page.context().newCDPSession(page);
  const issues: string[] = [];
  cdp.on('Audits.issueAdded', ({ issue }) => {
    if (issue.code === 'ContentSecurityPolicyIssue') issues.push(`${page.url()}: ${JSON.stringify(issue.details)}`);
  });
  await cdp.send('Audits.enable');

  for (const path of ['/', '/allparts', `/part/${first?._id}`]) {
    await page.goto(path);
    await expectHydrated(page);
  }
  expect(issues).toEqual([]);
});
