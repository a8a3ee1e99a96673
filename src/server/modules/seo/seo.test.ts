import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../../test/support/test-app.ts';
import { parts } from '../../db/schema.ts';
import { PartSitemapRepository } from '../catalog/part-sitemap-repository.ts';
import { insertPart } from '../orders/order-test-helpers.ts';
import { SitemapService } from './sitemap-service.ts';

const PUBLIC_URL = 'https://shop.example.test';

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1] ?? '');

describeEachDatabase(
  'robots.txt and sitemaps (issue 15)',
  (ctx) => {
    it('robots.txt keeps crawlers out of the API and accounts, and names the sitemap by the public address', async () => {
      const res = await ctx().app.inject({ url: '/robots.txt', headers: { host: 'attacker.example' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toContain('User-agent: *');
      expect(res.body).toContain('Disallow: /api/');
      expect(res.body).toContain('Disallow: /dashboard');
      expect(res.body).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
      expect(res.body).not.toContain('attacker');
    });

    it('the index names the pages and the parts sitemaps; together they list every part once', async () => {
      const { app, database } = ctx();
      await insertPart(database.db, { name: 'Sitemap Part' });
      const index = await app.inject({ url: '/sitemap.xml' });
      expect(index.statusCode).toBe(200);
      expect(index.headers['content-type']).toMatch(/^application\/xml/);
      expect(index.headers['cache-control']).toBe('public, max-age=3600');
      expect(index.body).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      expect(locs(index.body)).toEqual([`${PUBLIC_URL}/sitemaps/pages.xml`, `${PUBLIC_URL}/sitemaps/parts-1.xml`]);

      const pages = await app.inject({ url: '/sitemaps/pages.xml' });
      expect(locs(pages.body)).toEqual([
        `${PUBLIC_URL}/`,
        `${PUBLIC_URL}/allparts`,
        `${PUBLIC_URL}/blog`,
        `${PUBLIC_URL}/myprotfolio`,
      ]);
      const file = await app.inject({ url: '/sitemaps/parts-1.xml' });
      expect(file.statusCode).toBe(200);
      const ids = (await database.db.select({ id: parts.id }).from(parts)).map((row) => row.id).sort();
      expect(locs(file.body)).toEqual(ids.map((id) => `${PUBLIC_URL}/part/${id}`));
      expect(file.body).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/);

      expect((await app.inject({ url: '/sitemaps/parts-2.xml' })).statusCode).toBe(404);
      for (const bad of ['parts-0.xml', 'parts-x.xml', '..%2Fpackage.json', 'pages.xml.gz']) {
        expect((await app.inject({ url: `/sitemaps/${bad}` })).statusCode, bad).toBe(400);
      }
    });

    it('files of a few parts each split the catalogue in id order, with no part twice and none left out', async () => {
      const { database } = ctx();
      for (let i = 0; i < 7; i++) await insertPart(database.db, { name: `Split ${i}` });
      const sitemap = new SitemapService(new PartSitemapRepository(database.db), PUBLIC_URL, 3);
      const files = locs(await sitemap.index()).filter((loc) => loc.includes('/parts-'));
      const listed: string[] = [];
      for (let n = 1; n <= files.length; n++) listed.push(...locs((await sitemap.partsFile(n)) ?? ''));
      const ids = (await database.db.select({ id: parts.id }).from(parts)).map((row) => row.id).sort();
      expect(files.length).toBe(Math.ceil(ids.length / 3));
      expect(listed).toEqual(ids.map((id) => `${PUBLIC_URL}/part/${id}`));
      expect(await sitemap.partsFile(files.length + 1)).toBeUndefined();
    });
  },
  { PUBLIC_URL },
);
