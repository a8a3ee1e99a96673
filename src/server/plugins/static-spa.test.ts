import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';

describe('serving the built SPA', () => {
  let ctx: TestContext;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-static-'));

  beforeAll(async () => {
    fs.mkdirSync(path.join(root, 'assets'));
    fs.mkdirSync(path.join(root, 'images'));
    fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>shop</title><div id="root"></div>');
    fs.writeFileSync(path.join(root, 'assets', 'index-abc123.js'), `console.log(${JSON.stringify('x'.repeat(5000))});`);
    fs.writeFileSync(path.join(root, 'images', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    fs.writeFileSync(path.join(root, 'assets', 'vendor-def456.js'), 'x'.repeat(4000));
    fs.writeFileSync(path.join(root, 'assets', 'vendor-def456.js.br'), zlib.brotliCompressSync('x'.repeat(4000)));
    ctx = await createTestApp('pglite', { STATIC_DIR: root });
  });
  afterAll(async () => {
    await ctx.app.close();
    await ctx.database.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('caches hashed assets for a year and compresses them', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toMatch(/br|gzip/);
  });

  it("serves the build's precompressed copy as it is", async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/assets/vendor-def456.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe('x'.repeat(4000));
  });

  it('serves index.html, revalidated, for every page path so the web app routes it', async () => {
    const pages = ['/', '/allparts?q=brake', '/part/123', '/Part/123/', '/dashboard/myorder', '/myprotfolio'];
    for (const url of [...pages, '/dashboard/order/0b4c6b4e-2f8e-4f55-9b4d-3a3c5e0f1a22', '/dashboard/pay?orders=a']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('answers an address that is no page with 404 and the page, so the app shows its not-found page', async () => {
    for (const url of ['/no/such/page?x=1', '/allparts/extra', '/part', '/part/1/2', '/dashboard/nothing-here']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('answers a missing file with 404, not with the page', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/assets/missing-999.js' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });

  it('keeps /api paths as JSON 404s', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
  });

  it('serves other public files with a day of caching', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/images/logo.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
  });
});
