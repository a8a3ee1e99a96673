import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDatabase, heardDirectWrites, type TestContext } from '../../../../test/support/test-app.ts';
import { partSchema } from '../../../shared/schemas/parts.ts';
import { parts } from '../../db/schema.ts';

/**
 * A fixed catalogue with known creation times, prices and names, so every order and page can be asserted exactly.
 * Names are chosen so that name order, price order and age order all differ.
 */
const fixture = [
  { name: 'Chain 100%', description: 'Sealed O-ring chain', priceCents: 8900, minutesAgo: 60 },
  { name: 'Brake Pads', description: 'Sintered pads, 50% longer life', priceCents: 4500, minutesAgo: 50 },
  { name: 'Alpha Mirror', description: 'Bar-end mirror', priceCents: 2500, minutesAgo: 40 },
  { name: 'Oil_Filter', description: 'Spin-on filter for brake-friendly servicing', priceCents: 1200, minutesAgo: 30 },
  { name: 'Exhaust', description: 'Titanium silencer', priceCents: 52000, minutesAgo: 20 },
  { name: 'Disc Brake', description: 'Floating disc', priceCents: 26000, minutesAgo: 10 },
  { name: 'Zebra Grips', description: 'Back\\slash grips', priceCents: 1900, minutesAgo: 5 },
] as const;

const byAge = [...fixture].sort((a, b) => b.minutesAgo - a.minutesAgo).map((p) => p.name);
const byNewest = [...byAge].reverse();
const byPriceAsc = [...fixture].sort((a, b) => a.priceCents - b.priceCents).map((p) => p.name);
const byPriceDesc = [...byPriceAsc].reverse();
// Postgres compares text with the database collation; the fixture avoids case/locale ambiguities.
const byName = [...fixture].map((p) => p.name).sort((a, b) => (a < b ? -1 : 1));

async function seed(context: TestContext) {
  const now = Date.now();
  await context.database.db.insert(parts).values(
    fixture.map((p) => ({
      name: p.name,
      description: p.description,
      img: '/images/parts/brake-disc.svg',
      priceCents: p.priceCents,
      availableQuantity: 10,
      minimumOrder: 1,
      createdByEmail: 'admin@redline.dev',
      createdAt: new Date(now - p.minutesAgo * 60_000),
    })),
  );
  await heardDirectWrites(context.app);
}

describeEachDatabase('GET /api/part', (ctx) => {
  beforeAll(async () => {
    await seed(ctx());
  });

  async function list(query: string) {
    const res = await ctx().app.inject({ method: 'GET', url: `/api/part${query}` });
    expect(res.statusCode, res.body).toBe(200);
    const items = z.array(partSchema).parse(res.json());
    return { names: items.map((p) => p.name), items, total: Number(res.headers['x-total-count']) };
  }

  it('without parameters lists every part oldest first, as the spec does, with the total', async () => {
    const { names, total, items } = await list('');
    expect(names).toEqual(byAge);
    expect(total).toBe(fixture.length);
    expect(items[0]).toMatchObject({ name: 'Chain 100%', price: 89, availablequantity: 10, minimunorder: 1 });
  });

  it.each([
    ['newest', byNewest],
    ['price_asc', byPriceAsc],
    ['price_desc', byPriceDesc],
    ['name', byName],
  ] as const)('sorts by %s', async (sort, expected) => {
    const { names, total } = await list(`?sort=${sort}`);
    expect(names).toEqual(expected);
    expect(total).toBe(fixture.length);
  });

  it('answers the home page call (sort=newest&limit=6) with exactly the latest six', async () => {
    const { names, total } = await list('?sort=newest&limit=6');
    expect(names).toEqual(byNewest.slice(0, 6));
    expect(total).toBe(fixture.length);
  });

  it.each([
    ['', byAge],
    ['&sort=newest', byNewest],
    ['&sort=price_asc', byPriceAsc],
    ['&sort=price_desc', byPriceDesc],
    ['&sort=name', byName],
  ] as const)('pages with limit and offset%s, the total counting every match', async (sortParam, expected) => {
    for (const [limit, offset] of [
      [3, 0],
      [3, 3],
      [3, 6],
      [2, 5],
      [10, 0],
      [7, 0],
    ] as const) {
      const { names, total } = await list(`?limit=${limit}&offset=${offset}${sortParam}`);
      expect(names).toEqual(expected.slice(offset, offset + limit));
      expect(total).toBe(fixture.length);
    }
  });

  it('answers an offset past the end with an empty page and the true total', async () => {
    for (const query of ['?offset=50', '?limit=5&offset=7', '?limit=5&offset=100&sort=name']) {
      const { names, total } = await list(query);
      expect(names).toEqual([]);
      expect(total).toBe(fixture.length);
    }
  });

  it('offset alone skips from the start of the order', async () => {
    const { names, total } = await list('?offset=4');
    expect(names).toEqual(byAge.slice(4));
    expect(total).toBe(fixture.length);
  });

  it('searches name and description, case-insensitively, with every sort and page', async () => {
    // "brake" is in the names "Brake Pads" and "Disc Brake" and in the description of "Oil_Filter". Without a sort
    // a search is ordered by relevance (ADR 012): the names first, the description after.
    const matching = ['Brake Pads', 'Disc Brake', 'Oil_Filter'];
    expect((await list('?q=brake')).names).toEqual(matching);
    expect((await list('?q=BRAKE')).names).toEqual(matching);
    expect((await list('?q=brake&sort=newest')).names).toEqual(['Disc Brake', 'Oil_Filter', 'Brake Pads']);
    expect((await list('?q=brake&sort=price_asc')).names).toEqual(['Oil_Filter', 'Brake Pads', 'Disc Brake']);
    expect((await list('?q=brake&sort=price_desc')).names).toEqual(['Disc Brake', 'Brake Pads', 'Oil_Filter']);
    expect((await list('?q=brake&sort=name')).names).toEqual(['Brake Pads', 'Disc Brake', 'Oil_Filter']);
    const page = await list('?q=brake&sort=name&limit=2&offset=1');
    expect(page.names).toEqual(['Disc Brake', 'Oil_Filter']);
    expect(page.total).toBe(3);
    const first = await list('?q=brake&limit=2');
    expect(first.names).toEqual(['Brake Pads', 'Disc Brake']);
    expect(first.total).toBe(3);
  });

  it('trims the search and treats an empty one as no search', async () => {
    expect((await list('?q=%20%20mirror%20')).names).toEqual(['Alpha Mirror']);
    const all = await list('?q=');
    expect(all.names).toEqual(byAge);
    expect(all.total).toBe(fixture.length);
  });

  it('searches LIKE wildcards literally', async () => {
    expect((await list('?q=%25')).names).toEqual(['Chain 100%', 'Brake Pads']);
    expect((await list('?q=_')).names).toEqual(['Oil_Filter']);
    expect((await list('?q=%5C')).names).toEqual(['Zebra Grips']);
    expect((await list('?q=100%25')).names).toEqual(['Chain 100%']);
    const none = await list('?q=nothing-like-this');
    expect(none.names).toEqual([]);
    expect(none.total).toBe(0);
  });

  it('treats SQL in the search as text', async () => {
    const { names, total } = await list(`?q=${encodeURIComponent("' OR 1=1 --")}`);
    expect(names).toEqual([]);
    expect(total).toBe(0);
  });

  it.each([
    'limit=0',
    'limit=101',
    'limit=-1',
    'limit=2.5',
    'limit=abc',
    'offset=-1',
    'offset=1.5',
    'offset=x',
    'sort=random',
    'sort=',
    `q=${'x'.repeat(101)}`,
    'unknown=1',
  ])('rejects the bad query %s with 400 in the error shape', async (query) => {
    const res = await ctx().app.inject({ method: 'GET', url: `/api/part?${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'invalid_data', message: expect.any(String) } });
  });

  it('returns one part by id, 404 for an unknown id and 400 for a malformed one', async () => {
    const { items } = await list('?sort=name&limit=1');
    const first = items[0];
    if (!first) throw new Error('no part');
    const res = await ctx().app.inject({ method: 'GET', url: `/api/part/${first._id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...first, fitment: [], photos: [] });
    const missing = await ctx().app.inject({ method: 'GET', url: '/api/part/00000000-0000-4000-8000-000000000000' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: { code: 'not_found', message: 'This part does not exist.' } });
    for (const id of ['nope', '1%20OR%201%3D1', `${first._id}x`]) {
      const malformed = await ctx().app.inject({ method: 'GET', url: `/api/part/${id}` });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toEqual({
        error: {
          code: 'invalid_data',
          message: 'Provide A Valid Id',
          details: [{ path: 'params.id', message: 'Provide A Valid Id' }],
        },
      });
    }
  });

  it('reports the filtered count in X-Total-Count, never the catalogue size it remembers', async () => {
    // The unfiltered list remembers the catalogue's size; a filtered list must count its own matches anyway.
    expect((await list('')).total).toBe(fixture.length);
    expect((await list('?limit=2')).total).toBe(fixture.length);
    for (const query of ['?q=brake', '?q=brake&limit=1', '?q=brake&limit=2&offset=2', '?q=brake&offset=10']) {
      expect((await list(query)).total, query).toBe(3);
    }
    expect((await list('?q=mirror&limit=1&sort=newest')).total).toBe(1);
  });
});

describeEachDatabase('GET /api/part on an empty catalogue', (ctx) => {
  it('answers an empty list with a zero total', async () => {
    for (const query of ['', '?limit=6&sort=newest', '?offset=10', '?q=x']) {
      const res = await ctx().app.inject({ method: 'GET', url: `/api/part${query}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
      expect(res.headers['x-total-count']).toBe('0');
    }
  });
});
