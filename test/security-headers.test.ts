import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './support/test-app.ts';
import { testDrivers } from './support/test-database.ts';

/*
 * The browser-facing protections hold on every answer the server gives, not only on the happy paths: every
 * route and method of the OpenAPI document called anonymously (whatever it answers), the web app's pages and
 * files, not-found and malformed requests. Plus HSTS only over https, Stripe in the CSP only when configured,
 * CORS closed unless configured, and no cookies at all (the API uses bearer tokens).
 */

type Headers = LightMyRequestResponse['headers'];

const STRIPE = {
  STRIPE_SECRET_KEY: 'sk_test_dummy_for_headers',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_dummy_for_headers',
  STRIPE_WEBHOOK_SECRET: 'whsec_dummy_for_headers',
};

function header(headers: Headers, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : String(value ?? '');
}

function cspDirectives(headers: Headers): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of header(headers, 'content-security-policy').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), values);
  }
  return directives;
}

/** The headers every response must carry, whatever its status or content type. */
function expectProtected(res: LightMyRequestResponse, label: string): void {
  const csp = cspDirectives(res.headers);
  expect(csp.size, `${label}: Content-Security-Policy`).toBeGreaterThan(0);
  const scriptSrc = csp.get('script-src') ?? csp.get('default-src');
  expect(scriptSrc, `${label}: script-src`).toBeDefined();
  expect(scriptSrc, `${label}: script-src without 'unsafe-inline'`).not.toContain("'unsafe-inline'");
  expect(scriptSrc, `${label}: script-src without 'unsafe-eval'`).not.toContain("'unsafe-eval'");
  expect(csp.get('frame-ancestors'), `${label}: frame-ancestors`).toEqual(["'none'"]);
  expect(csp.get('object-src') ?? csp.get('default-src'), `${label}: object-src`).toEqual(["'none'"]);
  expect(header(res.headers, 'x-frame-options'), `${label}: X-Frame-Options`).toBe('DENY');
  expect(header(res.headers, 'x-content-type-options'), `${label}: X-Content-Type-Options`).toBe('nosniff');
  expect(header(res.headers, 'referrer-policy'), `${label}: Referrer-Policy`).toBe('strict-origin-when-cross-origin');
  expect(res.headers['x-powered-by'], `${label}: X-Powered-By`).toBeUndefined();
  expect(res.headers['set-cookie'], `${label}: Set-Cookie`).toBeUndefined();
  expect(res.headers['x-request-id'], `${label}: X-Request-Id`).toBeTruthy();
}

/** A fake build of the web app, enough for the SPA plugin to serve pages and files. */
function writeWebBuild(root: string): void {
  fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'index.html'),
    '<!doctype html><title>Redline Parts</title><script type="module" src="/assets/index-abc123.js"></script><div id="root"></div>',
  );
  fs.writeFileSync(path.join(root, 'assets', 'index-abc123.js'), `console.log(${JSON.stringify('x'.repeat(4000))});`);
  fs.writeFileSync(path.join(root, 'assets', 'index-abc123.css'), 'body{color:#111}');
  fs.writeFileSync(path.join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // (robots.txt is the app's own answer, built from PUBLIC_URL: src/server/modules/seo.)
  fs.writeFileSync(path.join(root, 'humans.txt'), 'Redline Parts\n');
}

interface Operation {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH' | 'OPTIONS' | 'HEAD';
  url: string;
}

/** Every operation of the generated OpenAPI document, with its path parameters filled in. */
function operationsOf(doc: { paths: Record<string, Record<string, unknown>> }): Operation[] {
  const methods = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'];
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    const url = template.replace(/\{([^}]+)\}/g, (_match, name: string) =>
      /email/i.test(name) ? 'someone%40example.com' : '00000000-0000-4000-8000-000000000000',
    );
    for (const method of Object.keys(item)) {
      if (methods.includes(method)) operations.push({ method: method.toUpperCase() as Operation['method'], url });
    }
  }
  return operations;
}

const apps: TestContext[] = [];
let webRoot = '';

async function app(driver: TestContext['driver'], overrides: Record<string, string> = {}): Promise<TestContext> {
  const ctx = await createTestApp(driver, { STATIC_DIR: webRoot, ...overrides });
  apps.push(ctx);
  return ctx;
}

beforeAll(() => {
  webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-headers-web-'));
  writeWebBuild(webRoot);
});

afterAll(async () => {
  for (const ctx of apps) {
    await ctx.app.close();
    await ctx.database.close();
  }
  fs.rmSync(webRoot, { recursive: true, force: true });
});

describe.each(testDrivers)('security headers [%s]', (driver) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await app(driver);
  });

  it('are on every route and method of the OpenAPI document, called anonymously', async () => {
    const docResponse = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expectProtected(docResponse, 'GET /api/openapi.json');
    const operations = operationsOf(docResponse.json());
    // Guards against an empty document making this test pass vacuously.
    expect(operations.length).toBeGreaterThan(20);
    const statuses: string[] = [];
    for (const { method, url } of operations) {
      const withBody = ['POST', 'PUT', 'PATCH'].includes(method);
      const request: InjectOptions = withBody ? { method, url, payload: {} } : { method, url };
      const res = await ctx.app.inject(request);
      expectProtected(res, `${method} ${url} → ${res.statusCode}`);
      expect(res.statusCode, `${method} ${url} must not fail on the server`).toBeLessThan(500);
      statuses.push(`${method} ${url} ${res.statusCode}`);
      if (method === 'GET') {
        const head = await ctx.app.inject({ method: 'HEAD', url });
        expectProtected(head, `HEAD ${url} → ${head.statusCode}`);
      }
    }
    expect(statuses.length).toBe(operations.length);
  });

  it('are on the web app, its files, the API docs, not-found and malformed requests', async () => {
    const cases: InjectOptions[] = [
      { method: 'GET', url: '/' },
      { method: 'HEAD', url: '/' },
      { method: 'GET', url: '/allparts' },
      { method: 'GET', url: '/part/123?x=1' },
      { method: 'GET', url: '/dashboard/myorder' },
      { method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } },
      { method: 'GET', url: '/assets/index-abc123.css' },
      { method: 'GET', url: '/favicon.svg' },
      { method: 'GET', url: '/robots.txt' },
      { method: 'GET', url: '/humans.txt' },
      { method: 'GET', url: '/sitemap.xml' },
      { method: 'GET', url: '/assets/missing-999.js' },
      { method: 'GET', url: '/api/no-such-route' },
      { method: 'POST', url: '/' },
      { method: 'DELETE', url: '/api/health' },
      { method: 'OPTIONS', url: '/api/part' },
      { method: 'GET', url: '/api/docs' },
      { method: 'GET', url: '/api/docs/' },
      { method: 'GET', url: '/api/docs/static/index.html' },
      { method: 'GET', url: '/api/docs/json' },
      { method: 'GET', url: '/api/part?limit=not-a-number' },
      {
        method: 'POST',
        url: '/api/login',
        payload: '{"email": ',
        headers: { 'content-type': 'application/json' },
      },
      { method: 'POST', url: '/api/login', payload: 'email=a', headers: { 'content-type': 'text/plain' } },
      {
        method: 'POST',
        url: '/api/signup',
        payload: JSON.stringify({ name: 'x'.repeat(200_000) }),
        headers: { 'content-type': 'application/json' },
      },
      { method: 'GET', url: '/api/me', headers: { authorization: 'Bearer not-a-real-token' } },
    ];
    for (const request of cases) {
      const res = await ctx.app.inject(request);
      const label = `${request.method} ${request.url} → ${res.statusCode}`;
      expectProtected(res, label);
      expect(res.statusCode, label).toBeLessThan(500);
    }
  });

  // KNOWN DEFECT: Fastify answers these before routing, so no hook (helmet's included) runs and the answer has no
  // security headers, no request id and not our error shape. The fix is a `frameworkErrors` handler in
  // src/server/app.ts that sets the headers itself; remove `.fails` once it is in.
  it('are on answers to malformed URLs too (bad percent-encoding, over-long parameters)', async () => {
    for (const url of ['/api/part/%E0%A4%A', '/%E0%A4%A', `/api/part/${'a'.repeat(150)}`]) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
      expectProtected(res, `GET ${url} → ${res.statusCode}`);
      expect(res.json().error.code, url).toBe('invalid_data');
    }
  });

  it('send no HSTS without an https PUBLIC_URL, and no Stripe origin without Stripe', async () => {
    for (const url of ['/', '/api/health', '/api/part']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
      const csp = header(res.headers, 'content-security-policy');
      expect(csp, url).not.toContain('stripe.com');
      expect(csp, url).not.toContain('upgrade-insecure-requests');
      const directives = cspDirectives(res.headers);
      expect(directives.get('frame-src') ?? directives.get('default-src'), url).toEqual(["'none'"]);
    }
  });

  it("give pages (and the API's HTML docs) the document policy, and the API's answers a locked one", async () => {
    for (const url of ['/', '/allparts', '/api/docs/static/index.html']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(cspDirectives(res.headers).get('script-src'), url).toEqual(["'self'"]);
      expect(res.headers['permissions-policy'], url).toBeDefined();
      expect(res.headers['cross-origin-opener-policy'], url).toBe('same-origin');
    }
    // Asked twice: the second answer is the kept one (catalog-read-cache.ts), with the same headers.
    for (const url of ['/api/health', '/api/part', '/api/part', '/api/no-such-route', '/api/openapi.json']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expectProtected(res, url);
      expect(cspDirectives(res.headers).get('default-src'), url).toEqual(["'none'"]);
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      // Document-only headers stay with documents.
      expect(res.headers['permissions-policy'], url).toBeUndefined();
      expect(res.headers['cross-origin-opener-policy'], url).toBeUndefined();
    }
  });

  it('send HSTS on every response when PUBLIC_URL is https, and not when it is http', async () => {
    const https = await app(driver, { PUBLIC_URL: 'https://shop.example' });
    for (const request of [
      { method: 'GET', url: '/' },
      { method: 'GET', url: '/api/health' },
      { method: 'GET', url: '/api/no-such-route' },
      { method: 'POST', url: '/api/myorder', payload: {} },
    ] as InjectOptions[]) {
      const res = await https.app.inject(request);
      expectProtected(res, `https ${request.method} ${request.url}`);
      const hsts = header(res.headers, 'strict-transport-security');
      expect(hsts, String(request.url)).toMatch(/max-age=(\d+)/);
      expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(31_536_000);
      expect(hsts).toContain('includeSubDomains');
      // A page's own requests go over https; an API answer loads nothing (`default-src 'none'`).
      const csp = cspDirectives(res.headers);
      expect(csp.has('upgrade-insecure-requests') || csp.get('default-src')?.[0] === "'none'").toBe(true);
    }
    const plain = await app(driver, { PUBLIC_URL: 'http://shop.example' });
    const res = await plain.app.inject({ method: 'GET', url: '/' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('let Stripe.js in (and nothing else third-party) only when Stripe is configured', async () => {
    const stripe = await app(driver, STRIPE);
    for (const url of ['/', '/payment/123']) {
      const res = await stripe.app.inject({ method: 'GET', url });
      expectProtected(res, `stripe GET ${url}`);
      const csp = cspDirectives(res.headers);
      expect(csp.get('script-src')).toEqual(["'self'", 'https://js.stripe.com']);
      expect(csp.get('frame-src')).toContain('https://js.stripe.com');
      expect(csp.get('connect-src')).toContain('https://api.stripe.com');
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    }
    // An API answer loads nothing, Stripe or not.
    const api = await stripe.app.inject({ method: 'GET', url: '/api/health' });
    expect(header(api.headers, 'content-security-policy')).not.toContain('stripe.com');
    const res = await ctx.app.inject({ method: 'GET', url: '/' });
    expect(cspDirectives(res.headers).get('script-src')).toEqual(["'self'"]);
  });

  it('keep CORS closed when CORS_ORIGINS is not set', async () => {
    const foreign = { origin: 'https://evil.example' };
    for (const request of [
      { method: 'GET', url: '/api/part', headers: foreign },
      { method: 'GET', url: '/api/health', headers: foreign },
      { method: 'POST', url: '/api/login', payload: {}, headers: foreign },
      {
        method: 'OPTIONS',
        url: '/api/myorder',
        headers: {
          ...foreign,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization',
        },
      },
    ] as InjectOptions[]) {
      const res = await ctx.app.inject(request);
      const label = `${request.method} ${request.url}`;
      expect(res.headers['access-control-allow-origin'], label).toBeUndefined();
      expect(res.headers['access-control-allow-credentials'], label).toBeUndefined();
      expect(res.headers['access-control-allow-methods'], label).toBeUndefined();
      expectProtected(res, label);
    }
  });

  it('open CORS to the configured origin only, preflight included', async () => {
    const cors = await app(driver, { CORS_ORIGINS: 'https://shop.example' });
    const allowed = await cors.app.inject({
      method: 'GET',
      url: '/api/part',
      headers: { origin: 'https://shop.example' },
    });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(header(allowed.headers, 'vary').toLowerCase()).toContain('origin');
    expect(allowed.headers['access-control-allow-credentials']).toBeUndefined();
    expectProtected(allowed, 'cors allowed GET');

    const preflight = await cors.app.inject({
      method: 'OPTIONS',
      url: '/api/myorder',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.statusCode).toBeGreaterThanOrEqual(200);
    expect(preflight.statusCode).toBeLessThan(300);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(header(preflight.headers, 'access-control-allow-methods')).toContain('POST');
    expect(header(preflight.headers, 'access-control-allow-headers').toLowerCase()).toContain('authorization');
    expectProtected(preflight, 'cors preflight');

    for (const origin of ['https://evil.example', 'https://shop.example.evil.example', 'http://shop.example']) {
      const res = await cors.app.inject({ method: 'GET', url: '/api/part', headers: { origin } });
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
      const foreignPreflight = await cors.app.inject({
        method: 'OPTIONS',
        url: '/api/myorder',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(foreignPreflight.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });
});
