import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatUsd } from '../src/shared/money.ts';
import { SERVER_STATE_ID } from '../src/shared/server-rendering.ts';
import { Fixtures, validPart } from './support/request-builders.ts';
import { freePort, START_TIMEOUT_MS, startServer, waitForHealthy } from './support/server-process.ts';
import { describeEachDatabase } from './support/test-app.ts';

/*
 * Issue 15: the public pages arrive as HTML a crawler can read without running a script, with their title,
 * description, canonical address, Open Graph tags and, on part pages, schema.org JSON-LD. Runs the production app
 * on the production build (`npm run build` makes dist/web and dist/ssr; `npm test` builds first).
 */

const STATIC_DIR = path.resolve('dist/web');
const PUBLIC_URL = 'https://shop.example';
/** A name with markup in it: it must arrive as text, in the HTML and in the JSON-LD. */
const NAME = 'Brake Disc <i>&</i>';
const ESCAPED_NAME = 'Brake Disc &lt;i&gt;&amp;&lt;/i&gt;';

describe('the build', () => {
  it('holds the web app and its server-rendering bundle (npm run build)', () => {
    expect(fs.existsSync(path.join(STATIC_DIR, 'index.html'))).toBe(true);
    expect(fs.existsSync(path.resolve('dist/ssr/entry-server.js'))).toBe(true);
  });
});

/*
 * The shapes Google's Rich Results read (developers.google.com/search/docs/appearance/structured-data/product-snippet,
 * …/merchant-listing, …/breadcrumb): the required properties, and the recommended ones the shop always has.
 */
const url = z.url({ protocol: /^https?$/ });
const offerSchema = z.object({
  '@type': z.literal('Offer'),
  price: z.union([z.number().positive(), z.string().regex(/^\d+(\.\d+)?$/)]),
  priceCurrency: z.string().regex(/^[A-Z]{3}$/),
  availability: z.enum([
    'https://schema.org/InStock',
    'https://schema.org/OutOfStock',
    'https://schema.org/PreOrder',
    'https://schema.org/BackOrder',
  ]),
  url,
  itemCondition: z.string().startsWith('https://schema.org/').optional(),
});
const aggregateRatingSchema = z
  .object({
    '@type': z.literal('AggregateRating'),
    ratingValue: z.number().min(1).max(5),
    reviewCount: z.number().int().positive().optional(),
    ratingCount: z.number().int().positive().optional(),
  })
  .refine((rating) => rating.reviewCount !== undefined || rating.ratingCount !== undefined, 'a count of ratings');
const productSchema = z.strictObject({
  '@context': z.literal('https://schema.org'),
  '@type': z.literal('Product'),
  name: z.string().min(1),
  image: z.array(url).min(1),
  description: z.string().min(1),
  sku: z.string().min(1),
  mpn: z.string().min(1),
  brand: z.object({ '@type': z.literal('Brand'), name: z.string().min(1) }),
  offers: offerSchema,
  aggregateRating: aggregateRatingSchema.optional(),
});
const breadcrumbSchema = z.strictObject({
  '@context': z.literal('https://schema.org'),
  '@type': z.literal('BreadcrumbList'),
  itemListElement: z
    .array(
      z.object({
        '@type': z.literal('ListItem'),
        position: z.number().int().positive(),
        name: z.string().min(1),
        item: url,
      }),
    )
    .min(2)
    .refine((items) => items.every((entry, index) => entry.position === index + 1), 'positions 1, 2, 3…'),
});

function jsonLdOf(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((match) =>
    JSON.parse(match[1] ?? ''),
  );
}

/** The part of the page React rendered, i.e. what a reader sees before any script has run. */
function rootOf(html: string): string {
  const start = html.indexOf('<div id="root">');
  const end = html.indexOf(`<script type="application/json" id="${SERVER_STATE_ID}">`);
  expect(start).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  return html.slice(start, end);
}

function headOf(html: string): string {
  return html.slice(0, html.indexOf('</head>'));
}

describeEachDatabase(
  'server-rendered pages',
  (ctx) => {
    let part: { _id: string; name: string };

    beforeAll(async () => {
      const fx = await Fixtures.create(ctx);
      const res = await ctx().app.inject({
        method: 'POST',
        url: '/api/part',
        headers: fx.headersOf('admin'),
        payload: {
          ...validPart(),
          name: NAME,
          price: 129.99,
          brand: 'Brembo',
          mpn: 'BD-2231',
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      part = res.json();
    });

    it('renders a part page: its name and price in the HTML, its head, Product and BreadcrumbList JSON-LD', async () => {
      const res = await ctx().app.inject({ method: 'GET', url: `/part/${part._id}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const root = rootOf(res.body);
      // React escapes the name; the price as the page formats it.
      expect(root).toContain(ESCAPED_NAME);
      expect(root).toContain('$129.99');
      expect(root).not.toContain('<i>');
      // The order form shows its default quantity (the part's minimum order, 2) before any script runs.
      expect(root).toMatch(/<input[^>]*name="quantity"[^>]*value="2"|<input[^>]*value="2"[^>]*name="quantity"/);

      const head = headOf(res.body);
      expect(head).toContain(`<title>Purchase ${ESCAPED_NAME} | Redline Parts</title>`);
      expect(head).toContain(`<link rel="canonical" href="${PUBLIC_URL}/part/${part._id}" />`);
      expect(head).toContain('<meta property="og:type" content="product" />');
      expect(head).toMatch(/<meta name="description" content="[^"]*\$129\.99/);
      expect(head.match(/<title>/g)).toHaveLength(1);

      const [product, breadcrumbs, ...rest] = jsonLdOf(res.body);
      expect(rest).toEqual([]);
      const checked = productSchema.parse(product);
      expect(checked).toMatchObject({
        name: NAME,
        mpn: 'BD-2231',
        brand: { name: 'Brembo' },
        offers: { price: '129.99', priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
      });
      // No part has reviews of its own (spec §3 reviews are of the shop): no rating is claimed.
      expect(checked.aggregateRating).toBeUndefined();
      expect(breadcrumbSchema.parse(breadcrumbs).itemListElement.map((item) => item.name)).toEqual([
        'Home',
        'Parts',
        NAME,
      ]);
      // `<` never appears raw inside a script, so the name cannot close it.
      for (const script of res.body.matchAll(/<script type="application\/(?:ld\+)?json"[^>]*>([\s\S]*?)<\/script>/g)) {
        expect(script[1]).not.toContain('<');
      }
    });

    it('hands the page data to the browser under the query keys the browser uses', async () => {
      const res = await ctx().app.inject({ method: 'GET', url: `/part/${part._id}` });
      const state = res.body.match(
        new RegExp(`<script type="application/json" id="${SERVER_STATE_ID}">(.*?)</script>`),
      );
      const parsed = JSON.parse(state?.[1] ?? 'null');
      const keys = parsed.queries.queries.map((query: { queryKey: unknown }) => query.queryKey);
      expect(keys).toContainEqual(['parts', 'detail', part._id, null]);
    });

    it('renders the parts list with its filters from the address', async () => {
      const res = await ctx().app.inject({ method: 'GET', url: '/allparts?q=brake&sort=price_desc' });
      expect(res.statusCode).toBe(200);
      const root = rootOf(res.body);
      expect(root).toContain(ESCAPED_NAME);
      expect(root).toContain('$129.99');
      expect(headOf(res.body)).toContain('<title>Parts | Redline Parts</title>');
      expect(headOf(res.body)).toContain(`<link rel="canonical" href="${PUBLIC_URL}/allparts" />`);
    });

    it('renders parts lists asked for at the same time, each with its parts', async () => {
      const urls = ['/allparts?q=brake', '/allparts?q=brake&sort=name', '/allparts?q=disc', '/allparts?q=brake'];
      const pages = await Promise.all([...urls, ...urls].map((url) => ctx().app.inject({ method: 'GET', url })));
      for (const page of pages) expect(rootOf(page.body)).toContain(ESCAPED_NAME);
    });

    it('renders the home page with the latest parts', async () => {
      const res = await ctx().app.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(200);
      // The Content-Security-Policy runs no inline script: every script is a file or data (ADR 005).
      for (const [tag] of res.body.matchAll(/<script[^>]*>/g)) {
        expect(tag).toMatch(/ src="|type="application\/(ld\+)?json"/);
      }
      const root = rootOf(res.body);
      expect(root).toContain('Build Your Store, Sell Your Goods and Earn Money');
      expect(root).toContain(ESCAPED_NAME);
      expect(headOf(res.body)).toContain(`<link rel="canonical" href="${PUBLIC_URL}/" />`);
      expect(headOf(res.body)).toContain('<meta property="og:title"');
    });

    it("starts the app from one module script and preloads the page's chunks, every one in the build (ADR 024)", async () => {
      for (const page of ['/', `/part/${part._id}`]) {
        const res = await ctx().app.inject({ method: 'GET', url: page });
        const scripts = [...res.body.matchAll(/<script[^>]* src="([^"]+)"[^>]*>/g)];
        expect(scripts.map(([tag]) => tag)).toEqual([
          expect.stringMatching(/^<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js">$/),
        ]);
        const preloads = [...headOf(res.body).matchAll(/<link rel="modulepreload"[^>]* href="([^"]+)"/g)].map(
          ([, href]) => href ?? '',
        );
        if (page !== '/') expect(preloads.some((file) => file.includes('purchase-route'))).toBe(true);
        for (const file of [scripts[0]?.[1] ?? '', ...preloads]) {
          expect(fs.existsSync(path.join(STATIC_DIR, file)), file).toBe(true);
        }
      }
    });

    it('puts the image preloads React hoists into <head>, so #root starts with the layout the browser hydrates', async () => {
      const res = await ctx().app.inject({ method: 'GET', url: '/' });
      expect(rootOf(res.body)).toMatch(/^<div id="root"><div class="d-flex/);
      expect(headOf(res.body)).toMatch(/<link rel="preload" as="image" href="\/images\/home\/hero-banner\.svg"/);
    });

    it.each(['/blog', '/myprotfolio'])('renders %s', async (page) => {
      const res = await ctx().app.inject({ method: 'GET', url: page });
      expect(res.statusCode).toBe(200);
      expect(rootOf(res.body)).toContain('<h1');
    });

    it('answers an unknown address 404 with the not-found page, not to be indexed', async () => {
      const res = await ctx().app.inject({ method: 'GET', url: '/no-such-page' });
      expect(res.statusCode).toBe(404);
      expect(rootOf(res.body)).toContain('404');
      expect(headOf(res.body)).toContain('<meta name="robots" content="noindex" />');
      expect(headOf(res.body)).not.toContain('rel="canonical"');
    });

    it('answers a part that does not exist 404, leaving the page to the browser', async () => {
      const res = await ctx().app.inject({ method: 'GET', url: '/part/00000000-0000-4000-8000-000000000000' });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain(SERVER_STATE_ID);
      const bad = await ctx().app.inject({ method: 'GET', url: '/part/not-an-id' });
      expect(bad.statusCode).toBe(404);
    });

    it('leaves signed-in pages to the browser (the shell, no server state)', async () => {
      const res = await ctx().app.inject({ method: 'GET', url: '/dashboard/myorder' });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(SERVER_STATE_ID);
      expect(res.body).toContain('<div id="root">');
    });

    it('does not publish the build manifest', async () => {
      const res = await ctx().app.inject({ method: 'GET', url: '/.vite/manifest.json' });
      expect(res.statusCode).toBe(404);
    });
  },
  { STATIC_DIR, PUBLIC_URL },
);

describe('the production server (npm start), fetched without a browser', () => {
  it(
    'sends a part page whose HTML holds the part, its price and its JSON-LD, under the Content-Security-Policy',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-ssr-'));
      try {
        const server = startServer(
          { DATA_DIR: dataDir, NODE_ENV: 'production', PAYMENT_PROVIDER: 'test', LOG_LEVEL: 'warn' },
          await freePort(),
        );
        await waitForHealthy(server);
        // The demo catalogue a first start seeds.
        const [part] = (await (await fetch(`${server.url}/api/part?limit=1`)).json()) as {
          _id: string;
          name: string;
          price: number;
        }[];
        if (!part) throw new Error('no part was seeded');

        const res = await fetch(`${server.url}/part/${part._id}`);
        expect(res.status).toBe(200);
        const csp = res.headers.get('content-security-policy') ?? '';
        expect(csp).toContain("script-src 'self';");
        // Compressed, though no route answers it (the not-found handler renders pages; ADR 018).
        expect(res.headers.get('content-encoding')).toMatch(/^(br|gzip)$/);
        const html = await res.text();
        // ADR 018: the stylesheet is inline, allowed by its hash; no stylesheet request stands before the first paint.
        const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1] ?? '');
        expect(styles).toHaveLength(1);
        const styleSrc = csp.split(';').find((directive) => directive.trim().startsWith('style-src')) ?? '';
        for (const css of styles)
          expect(styleSrc).toContain(`'sha256-${crypto.createHash('sha256').update(css).digest('base64')}'`);
        expect(styleSrc).not.toContain('unsafe-inline');
        expect(html).not.toContain('rel="stylesheet"');
        const root = rootOf(html);
        expect(root).toContain(part.name.replace(/&/g, '&amp;'));
        expect(root).toContain(formatUsd(part.price));
        expect(productSchema.partial({ mpn: true, brand: true }).parse(jsonLdOf(html)[0]).name).toBe(part.name);
        expect(server.output()).not.toMatch(/Server rendering failed/);

        const missing = await fetch(`${server.url}/no-such-page`);
        expect(missing.status).toBe(404);
        expect(rootOf(await missing.text())).toContain('404');
        expect(await server.stop()).toBe(0);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    START_TIMEOUT_MS + 30_000,
  );
});
