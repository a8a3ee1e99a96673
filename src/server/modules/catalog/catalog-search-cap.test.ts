import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, heardDirectWrites } from '../../../../test/support/test-app.ts';
import { partListPageSchema } from '../../../shared/schemas/parts.ts';
import { SEARCH_CANDIDATES } from './part-search.ts';

/**
 * A broad search ranks and counts at most SEARCH_CANDIDATES candidates (ADR 012): its total is then "at least" and
 * says so (`X-Total-Count-Capped`), an exact part number is still found first, and lists without a search are not
 * capped. The catalogue: SEARCH_CANDIDATES + 5 "Cap Widget" parts written straight in SQL (the form would take minutes).
 */
describeEachDatabase('search: capped candidates', (ctx) => {
  const widgets = SEARCH_CANDIDATES + 5;

  beforeAll(async () => {
    await ctx().database.db.execute(sql`
      insert into parts (name, description, img, price_cents, available_quantity, mpn, part_numbers)
      select 'Cap Widget ' || i, 'a widget for the cap test', '/images/parts/brake-disc.svg', 100 + i, 5,
        'CW-' || i, array['cw' || i]
      from generate_series(1, ${widgets}) i`);
    await heardDirectWrites(ctx().app);
  });

  it('answers the cap and says it is one for a search with more matches', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/part?q=widget&limit=5' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-total-count']).toBe(String(SEARCH_CANDIDATES));
    expect(res.headers['x-total-count-capped']).toBe('true');
    expect(res.json()).toHaveLength(5);
    const page = await ctx().app.inject({ method: 'GET', url: '/api/part/page?q=widget&limit=5' });
    const body = partListPageSchema.parse(page.json());
    expect([body.total, body.capped, body.facets.total]).toEqual([SEARCH_CANDIDATES, true, SEARCH_CANDIDATES]);
  });

  it('finds an exact part number first however broad the rest of the search', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: `/api/part?q=CW-${widgets}&limit=3` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()[0].name).toBe(`Cap Widget ${widgets}`);
  });

  it('counts exactly, without the header, below the cap and without a search', async () => {
    const narrow = await ctx().app.inject({ method: 'GET', url: '/api/part?q=Cap%20Widget%2017' });
    expect(narrow.headers['x-total-count-capped']).toBeUndefined();
    expect(narrow.json()[0].name).toBe('Cap Widget 17');
    const all = await ctx().app.inject({ method: 'GET', url: '/api/part?limit=1' });
    expect(Number(all.headers['x-total-count'])).toBeGreaterThanOrEqual(widgets);
    expect(all.headers['x-total-count-capped']).toBeUndefined();
  });
});
