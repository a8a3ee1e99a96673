import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, heardDirectWrites } from '../../../../test/support/test-app.ts';
import type { Part, PartListPage } from '../../../shared/schemas/parts.ts';
import type { PartSuggestions } from '../../../shared/schemas/search.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { seedDemoData } from '../../db/seed.ts';
import {
  MT07_PADS,
  QUERIES,
  RIDER_PARTS,
  RIDER_QUERIES,
  RIDER_QUERIES_MT07,
  YAMAHA_FITTED,
} from './search-quality.fixture.ts';

/**
 * Search quality (ADR 012): a fixed set of queries over the demo catalogue with the answers
 * a shopper expects at the top. Typos, part numbers in every spelling, brand and vehicle words, plural and singular,
 * stop words. `top` lists the names expected first, in that order; `first` the set expected to fill the first
 * places in any order; `only` the whole answer, in any order.
 * The queries are in search-quality.fixture.ts.
 */
describeEachDatabase('search over the demo catalogue', (ctx) => {
  beforeAll(async () => {
    await seedDemoData(
      ctx().database.db,
      {
        ADMIN_EMAIL: 'boss@shop.com',
        ADMIN_PASSWORD: 'secret-pass',
        NODE_ENV: 'test',
        TEST_ONLY_FAST_PASSWORD_HASH: 'true',
      },
      { info: () => {}, warn: () => {} },
    );
  });

  async function search(query: string): Promise<{ names: string[]; total: number }> {
    const res = await ctx().app.inject({ method: 'GET', url: `/api/part?q=${encodeURIComponent(query)}&limit=24` });
    expect(res.statusCode, query).toBe(200);
    return { names: (res.json() as Part[]).map((p) => p.name), total: Number(res.headers['x-total-count']) };
  }

  async function suggest(query: string): Promise<PartSuggestions> {
    const res = await ctx().app.inject({ method: 'GET', url: `/api/part/suggest?q=${encodeURIComponent(query)}` });
    expect(res.statusCode, query).toBe(200);
    return res.json() as PartSuggestions;
  }

  describe('finds what a shopper means', () => {
    it.each(QUERIES)('%s', async (query, expected) => {
      const { names, total } = await search(query);
      expect(total, query).toBe(names.length);
      if ('top' in expected) expect(names.slice(0, expected.top.length), query).toEqual(expected.top);
      if ('first' in expected) {
        expect([...names.slice(0, expected.first.length)].sort(), query).toEqual([...expected.first].sort());
      }
      if ('only' in expected) expect([...names].sort(), query).toEqual([...expected.only].sort());
    });
  });

  it('has at least 30 queries in its fixed set', () => {
    expect(QUERIES.length).toBeGreaterThanOrEqual(30);
  });

  it('ranks a name match above a description match', async () => {
    // "gauge" is the Pressure Meter's category and its description's word; no name has it.
    const { names } = await search('disc');
    expect(names[0]).toBe('Drilled Brake Disc');
    // "floating disc" is in the brake disc's description only: still found.
    expect((await search('floating')).names).toEqual(['Drilled Brake Disc']);
  });

  it('keeps the filters, the total and an explicit sort with a search', async () => {
    const sorted = await ctx().app.inject({ method: 'GET', url: '/api/part?q=brake&sort=price_asc' });
    const prices = (sorted.json() as Part[]).map((p) => p.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const braked = await ctx().app.inject({ method: 'GET', url: '/api/part?q=yamaha&category=brakes' });
    expect((braked.json() as Part[]).map((p) => p.name).sort()).toEqual(['Drilled Brake Disc', 'Sintered Brake Pads']);
    expect(braked.headers['x-total-count']).toBe('2');
    const paged = await ctx().app.inject({ method: 'GET', url: '/api/part?q=yamaha&limit=3&offset=3' });
    expect(paged.json()).toHaveLength(3);
    expect(paged.headers['x-total-count']).toBe(String(YAMAHA_FITTED.length));
    const facets = await ctx().app.inject({ method: 'GET', url: '/api/part/facets?q=yamaha' });
    expect(facets.json()).toMatchObject({ total: YAMAHA_FITTED.length });
  });

  it('keeps the vehicle filter working with a search', async () => {
    // The seeded 2019 Yamaha YZ250F is fitted by the chain, clutch lever, spark plug and brake pads.
    const get = async <T>(url: string) => (await ctx().app.inject({ method: 'GET', url })).json() as T;
    const makes = await get<{ id: string; name: string }[]>('/api/vehicle/makes');
    const yamaha = makes.find((m) => m.name === 'Yamaha');
    const models = await get<{ id: string; name: string }[]>(`/api/vehicle/models?makeId=${yamaha?.id}`);
    const yz = models.find((m) => m.name === 'YZ250F');
    const [vehicle] = await get<{ id: string }[]>(`/api/vehicle?modelId=${yz?.id}&year=2019`);
    const res = await ctx().app.inject({ method: 'GET', url: `/api/part?q=brak&vehicle=${vehicle?.id}&fits=true` });
    expect((res.json() as Part[]).map((p) => p.name)).toEqual(['Sintered Brake Pads']);
    const marked = await ctx().app.inject({ method: 'GET', url: `/api/part?q=brake&vehicle=${vehicle?.id}` });
    const fit = Object.fromEntries((marked.json() as Part[]).map((p) => [p.name, p.fit]));
    expect(fit).toMatchObject({ 'Sintered Brake Pads': 'fits', 'Drilled Brake Disc': 'doesNotFit' });
  });

  it('finds nothing for nonsense, and says so with a total of 0', async () => {
    const { names, total } = await search('qqqqzzzz');
    expect(names).toEqual([]);
    expect(total).toBe(0);
  });

  describe('suggestions', () => {
    it('offers parts, categories and brands while typing, the last word as a prefix', async () => {
      const found = await suggest('bra');
      expect(found.closest).toBe(false);
      expect(found.parts.map((p) => p.name)).toEqual(
        expect.arrayContaining(['Drilled Brake Disc', 'Sintered Brake Pads']),
      );
      expect(found.categories.map((c) => c.name)).toContain('Brakes');
      expect(found.correction).toBeNull();
      const brand = await suggest('alpin');
      expect(brand.brands).toEqual([{ slug: 'alpinestars', name: 'Alpinestars' }]);
      expect(brand.parts.map((p) => p.name).sort()).toEqual(['Riding Boots', 'Riding Gloves']);
    });

    it('offers at most eight lines', async () => {
      const found = await suggest('r');
      expect(found.parts.length).toBeLessThanOrEqual(4);
      expect(found.categories.length + found.brands.length).toBeLessThanOrEqual(4);
    });

    it('when nothing matches, offers a correction and the closest names', async () => {
      const found = await suggest('sintred brke pds');
      expect(found.closest).toBe(true);
      expect(found.parts.map((p) => p.name)[0]).toBe('Sintered Brake Pads');
      expect(found.correction).toBe('Sintered Brake Pads');
      const nothing = await suggest('qqqqzzzz');
      expect(nothing).toMatchObject({ parts: [], closest: true, correction: null });
    });

    it.each(['', '%20%20', 'x'.repeat(101)])('refuses the bad query %j with 400', async (q) => {
      const res = await ctx().app.inject({ method: 'GET', url: `/api/part/suggest?q=${q}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'invalid_data' } });
      const missing = await ctx().app.inject({ method: 'GET', url: '/api/part/suggest' });
      expect(missing.statusCode).toBe(400);
    });
  });
});

/**
 * A rider's searches (ADR 030): vehicle words in the search act as that vehicle's fitment (or are left out when the
 * list is already limited to it), a typo reaches what its word reaches, and suggestions stay within the vehicle.
 */
describeEachDatabase('search as a rider types it', (ctx) => {
  let mt07 = '';
  const get = async <T>(url: string) => {
    const res = await ctx().app.inject({ method: 'GET', url });
    expect(res.statusCode, url).toBe(200);
    return { body: res.json() as T, total: Number(res.headers['x-total-count']) };
  };

  beforeAll(async () => {
    const db = ctx().database.db;
    await seedDemoData(
      db,
      {
        ADMIN_EMAIL: 'boss@shop.com',
        ADMIN_PASSWORD: 'secret-pass',
        NODE_ENV: 'test',
        TEST_ONLY_FAST_PASSWORD_HASH: 'true',
      },
      { info: () => {}, warn: () => {} },
    );
    for (const part of RIDER_PARTS) {
      const [row] = rowsOf<{ id: string }>(
        await db.execute(sql`
          insert into parts (name, description, img, price_cents, available_quantity, universal, category_id)
          values (${part.name}, ${part.description}, '/images/parts/brake-pads.svg', 4500, 10, ${part.fits === 'universal'},
            (select id from categories where slug = 'brake-pads'))
          returning id`),
      );
      if (part.fits !== 'universal') {
        await db.execute(sql`
          insert into part_fitments (part_id, model_id, year_from, year_to)
          select ${row?.id}, id, 2014, 2025 from vehicle_models where name = ${part.fits}`);
      }
    }
    const [vehicle] = rowsOf<{ id: string }>(
      await db.execute(sql`
        select vehicles.id from vehicles inner join vehicle_models on vehicle_models.id = vehicles.model_id
        where vehicle_models.name = 'MT-07' and vehicles.year = 2019 and vehicles.variant = ''`),
    );
    mt07 = vehicle?.id ?? '';
    await heardDirectWrites(ctx().app);
  });

  const names = (parts: Part[]) => parts.map((part) => part.name).sort();

  it.each(RIDER_QUERIES)('with no vehicle chosen, %s', async (query, expected) => {
    const { body, total } = await get<Part[]>(`/api/part?q=${encodeURIComponent(query)}&limit=24`);
    expect(names(body), query).toEqual([...expected].sort());
    expect(total, query).toBe(expected.length);
  });

  it.each(RIDER_QUERIES_MT07)('with the 2019 MT-07 chosen, %s', async (query, expected) => {
    const url = `/api/part?q=${encodeURIComponent(query)}&vehicle=${mt07}&fits=true&limit=24`;
    const { body, total } = await get<Part[]>(url);
    expect(names(body), query).toEqual([...expected].sort());
    expect(total, query).toBe(expected.length);
    // The page with its facets answers the same.
    const page = await get<PartListPage>(`/api/part/page?q=${encodeURIComponent(query)}&vehicle=${mt07}&fits=true`);
    expect(names(page.body.items), query).toEqual([...expected].sort());
  });

  it('with the MT-07 chosen, its name alone lists what fits it', async () => {
    const all = await get<Part[]>(`/api/part?vehicle=${mt07}&fits=true&limit=100`);
    const named = await get<Part[]>(`/api/part?q=mt07&vehicle=${mt07}&fits=true&limit=100`);
    expect(names(named.body)).toEqual(names(all.body));
  });

  it('with "Show all parts", the vehicle words still narrow the list, each part marked', async () => {
    const { body } = await get<Part[]>(`/api/part?q=mt07%20brake%20pads&vehicle=${mt07}&limit=24`);
    expect(names(body)).toEqual([...MT07_PADS].sort());
    expect(body.map((part) => part.fit).sort()).toEqual(['fits', 'fits', 'universal']);
  });

  it('suggests only parts that fit the chosen vehicle, and corrects to one of them', async () => {
    const typing = await get<PartSuggestions>(`/api/part/suggest?q=brak%20pa&vehicle=${mt07}`);
    expect(typing.body.parts.length).toBeGreaterThan(0);
    expect(typing.body.parts.every((part) => MT07_PADS.includes(part.name) && part.fit !== 'doesNotFit')).toBe(true);
    const anyBike = await get<PartSuggestions>('/api/part/suggest?q=sintred%20brke%20pds');
    expect(anyBike.body.correction).toBe('Sintered Brake Pads');
    const mine = await get<PartSuggestions>(`/api/part/suggest?q=sintred%20brke%20pds&vehicle=${mt07}`);
    expect(mine.body.closest).toBe(true);
    expect(mine.body.correction).not.toBe('Sintered Brake Pads');
    const front = await get<PartSuggestions>(`/api/part/suggest?q=sintred%20frnt%20pds&vehicle=${mt07}`);
    expect(front.body.correction).toBe('Sintered Front Pads');
    expect(mine.body.parts.map((part) => part.name)).not.toContain('Sintered Brake Pads');
    expect(mine.body.parts.every((part) => part.fit === 'fits' || part.fit === 'universal')).toBe(true);
  });

  it('refuses a suggestion vehicle that is not an id (400) or names nothing (404)', async () => {
    const bad = await ctx().app.inject({ method: 'GET', url: '/api/part/suggest?q=pads&vehicle=nope' });
    expect(bad.statusCode).toBe(400);
    const missing = await ctx().app.inject({
      method: 'GET',
      url: '/api/part/suggest?q=pads&vehicle=00000000-0000-4000-8000-000000000000',
    });
    expect(missing.statusCode).toBe(404);
  });
});
