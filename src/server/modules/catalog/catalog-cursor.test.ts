import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDatabase, heardDirectWrites, type TestContext } from '../../../../test/support/test-app.ts';
import { decodeCursor, encodeCursor } from '../../../shared/cursor.ts';
import { partListPageSchema, partSchema } from '../../../shared/schemas/parts.ts';
import { parts } from '../../db/schema.ts';

/**
 * Keyset paging (ADR 017). The fixture is made of ties: prices shared by several parts, names repeated, and
 * creation times equal or a microsecond apart (a cursor that kept only milliseconds would skip or repeat them).
 */
const NAMES = ['Bolt', 'Nut', 'Chain', 'Bolt', 'Axle', 'Nut', 'Bolt', 'Zip Tie'];
const PRICES = [1000, 1000, 2500, 500, 1000, 2500, 500];
const COUNT = 31;

async function seed(context: TestContext) {
  const { db } = context.database;
  for (let i = 0; i < COUNT; i++) {
    // Three parts per microsecond step, every tenth one a whole second later.
    const micros = Math.floor(i / 3);
    const seconds = Math.floor(i / 10);
    const createdAt = `2026-01-01T00:00:${String(seconds).padStart(2, '0')}.${String(micros).padStart(6, '0')}Z`;
    await db.insert(parts).values({
      name: NAMES[i % NAMES.length] ?? 'Bolt',
      description: `part ${i}`,
      img: '/images/parts/brake-disc.svg',
      priceCents: PRICES[i % PRICES.length] ?? 1000,
      availableQuantity: 10,
      minimumOrder: 1,
      createdByEmail: 'admin@redline.dev',
      createdAt: sql`${createdAt}::timestamptz` as unknown as Date,
    });
  }
  await heardDirectWrites(context.app);
}

const SORTS = ['', 'newest', 'price_asc', 'price_desc', 'name'] as const;
const withSort = (sort: string) => (sort ? `&sort=${sort}` : '');

describeEachDatabase('cursor paging of GET /api/part', (ctx) => {
  beforeAll(async () => {
    await seed(ctx());
  });

  async function get(url: string) {
    const res = await ctx().app.inject({ method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  }

  /** The whole list in one answer, by the (offset) path the spec's client uses: the order every walk must give. */
  async function everything(query: string): Promise<string[]> {
    const res = await get(`/api/part?${query}`);
    return z
      .array(partSchema)
      .parse(res.json())
      .map((p) => p._id);
  }

  /** Every page by following `nextCursor` from page 1 (`/api/part/page`). */
  async function walkPages(query: string, limit: number): Promise<string[][]> {
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const res = await get(`/api/part/page?${query}&limit=${limit}${cursor ? `&after=${cursor}` : ''}`);
      const page = partListPageSchema.parse(res.json());
      expect(Number(res.headers['x-total-count'])).toBe(page.total);
      pages.push(page.items.map((p) => p._id));
      cursor = page.nextCursor;
      expect(pages.length).toBeLessThan(100);
    } while (cursor);
    return pages;
  }

  for (const sort of SORTS) {
    describe(`sort ${sort || '(catalogue order)'}`, () => {
      it('walks every page by cursor: each part once, in the order of the whole list, totals kept', async () => {
        const expected = await everything(withSort(sort));
        expect(expected).toHaveLength(COUNT);
        for (const limit of [1, 4, 7, 31, 40]) {
          const pages = await walkPages(withSort(sort), limit);
          expect(pages.flat()).toEqual(expected);
          expect(pages.every((page) => page.length > 0 && page.length <= limit)).toBe(true);
        }
      });

      it('walks GET /api/part by its Link header, X-Next-Cursor and X-Total-Count, and back by rel="prev"', async () => {
        const expected = await everything(withSort(sort));
        const seen: string[] = [];
        let url: string | undefined = `/api/part?limit=6${withSort(sort)}`;
        let lastUrl = '';
        while (url) {
          const res = await get(url);
          expect(res.headers['x-total-count']).toBe(String(COUNT));
          seen.push(
            ...z
              .array(partSchema)
              .parse(res.json())
              .map((p) => p._id),
          );
          const link = String(res.headers.link ?? '');
          const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
          if (next) expect(new URL(next, 'http://x').searchParams.get('after')).toBe(res.headers['x-next-cursor']);
          else expect(res.headers['x-next-cursor']).toBeUndefined();
          lastUrl = url;
          url = next;
        }
        expect(seen).toEqual(expected);
        // And back again from the last page by `before`.
        const back: string[][] = [];
        url = lastUrl;
        while (url) {
          const res = await get(url);
          back.unshift(
            z
              .array(partSchema)
              .parse(res.json())
              .map((p) => p._id),
          );
          url = /<([^>]+)>; rel="prev"/.exec(String(res.headers.link ?? ''))?.[1];
        }
        expect(back.flat()).toEqual(expected);
      });

      it('walks a filtered list (counted path) and a scoped one (one facet statement) by cursor', async () => {
        for (const filter of ['minPrice=9', 'fitment=none', 'minPrice=9&fitment=none']) {
          const query = `${filter}${withSort(sort)}`;
          const expected = await everything(query);
          const pages = await walkPages(query, 4);
          expect(pages.flat()).toEqual(expected);
        }
      });
    });
  }

  it('an offset page says where the next page starts, and a cursor continues it', async () => {
    const expected = await everything('sort=price_asc');
    const res = await get('/api/part/page?sort=price_asc&limit=5&offset=10');
    const page = partListPageSchema.parse(res.json());
    expect(page.items.map((p) => p._id)).toEqual(expected.slice(10, 15));
    const next = partListPageSchema.parse(
      (await get(`/api/part/page?sort=price_asc&limit=5&after=${page.nextCursor}`)).json(),
    );
    expect(next.items.map((p) => p._id)).toEqual(expected.slice(15, 20));
    const prev = partListPageSchema.parse(
      (await get(`/api/part/page?sort=price_asc&limit=5&before=${page.prevCursor}`)).json(),
    );
    expect(prev.items.map((p) => p._id)).toEqual(expected.slice(5, 10));
  });

  it('page 1, the last page and the spec call carry no cursor where there is no page', async () => {
    const first = partListPageSchema.parse((await get('/api/part/page?limit=50')).json());
    expect(first).toMatchObject({ nextCursor: null, prevCursor: null });
    const spec = await get('/api/part');
    expect(spec.headers.link).toBeUndefined();
    expect(spec.headers['x-next-cursor']).toBeUndefined();
    // A search by relevance pages by offset only (ADR 012): no cursors.
    const search = partListPageSchema.parse((await get('/api/part/page?q=bolt&limit=2')).json());
    expect(search.items).toHaveLength(2);
    expect(search).toMatchObject({ nextCursor: null, prevCursor: null });
  });

  it('a part added or deleted during a walk neither repeats nor skips any other part', async () => {
    const { db } = ctx().database;
    const before = await everything('sort=price_asc');
    const seen: string[] = [];
    let cursor: string | null = null;
    let step = 0;
    const added: string[] = [];
    const deleted: string[] = [];
    do {
      const res = await get(`/api/part/page?sort=price_asc&limit=4${cursor ? `&after=${cursor}` : ''}`);
      const page = partListPageSchema.parse(res.json());
      seen.push(...page.items.map((p) => p._id));
      cursor = page.nextCursor;
      step++;
      if (step === 2) {
        // One part in a page already read, one ahead (a price tie with others), and one ahead deleted.
        const [early, ahead] = await db
          .insert(parts)
          .values(
            [400, 1000].map((priceCents) => ({
              name: 'Added',
              description: 'added during the walk',
              img: '/images/parts/brake-disc.svg',
              priceCents,
              availableQuantity: 1,
              minimumOrder: 1,
              createdByEmail: 'admin@redline.dev',
            })),
          )
          .returning({ id: parts.id });
        added.push(early?.id ?? '', ahead?.id ?? '');
        const victim = before.at(-3) ?? '';
        await db.delete(parts).where(sql`${parts.id} = ${victim}::uuid`);
        deleted.push(victim);
        // Written straight to the database, not through this app.
        await heardDirectWrites(ctx().app);
      }
    } while (cursor);
    const others = seen.filter((id) => !added.includes(id));
    expect(others).toEqual(before.filter((id) => !deleted.includes(id)));
    expect(new Set(seen).size).toBe(seen.length);
    // Clean up so the other tests see the fixture.
    await db.delete(parts).where(
      sql`${parts.id} in (${sql.join(
        added.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
    await heardDirectWrites(ctx().app);
    await ctx().app.inject({ method: 'GET', url: '/api/part' });
  });

  it('refuses a malformed, tampered or misplaced cursor with a clear 400 that changes nothing', async () => {
    const good = partListPageSchema.parse((await get('/api/part/page?sort=price_asc&limit=3')).json()).nextCursor ?? '';
    const position = decodeCursor(good);
    expect(position?.o).toBe('price_asc');
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    const countBefore = (await get('/api/part')).headers['x-total-count'];
    const refused = [
      ['after=x', 'Provide A Valid Cursor'],
      ['after=', 'Provide A Valid Cursor'],
      ['after=%21%21%21', 'Provide A Valid Cursor'],
      [`after=${'A'.repeat(400)}`, 'Provide A Valid Cursor'],
      [`after=${b64('not json')}`, 'Provide A Valid Cursor'],
      [
        `after=${b64('{"o":"price_asc","k":"ten","i":"00000000-0000-4000-8000-000000000000"}')}`,
        'Provide A Valid Cursor',
      ],
      [`after=${b64('{"o":"price_asc","k":10,"i":"x"}')}`, 'Provide A Valid Cursor'],
      [
        `after=${b64('{"o":"newest","k":"2026-01-01 00:00","i":"00000000-0000-4000-8000-000000000000"}')}`,
        'Provide A Valid Cursor',
      ],
      // Shaped like a timestamp but no day of any calendar (the database would refuse it mid-statement).
      [
        `after=${b64('{"o":"newest","k":"2026-13-45T25:61:00.000000Z","i":"00000000-0000-4000-8000-000000000000"}')}`,
        'Provide A Valid Cursor',
      ],
      [
        `after=${b64('{"o":"price_asc","k":10,"i":"00000000-0000-4000-8000-000000000000","x":1}')}`,
        'Provide A Valid Cursor',
      ],
      [`after=${good.slice(0, -3)}`, 'Provide A Valid Cursor'],
      [`after=${good}`, 'This Cursor Belongs To Another Sort Order'],
      [`sort=name&before=${good}`, 'This Cursor Belongs To Another Sort Order'],
      [`sort=price_asc&after=${good}&before=${good}`, 'Page After Or Before A Cursor, Not Both'],
      [`sort=price_asc&after=${good}&offset=3`, 'Page By Cursor Or By Offset, Not Both'],
      [
        `q=bolt&after=${encodeCursor({ o: 'catalogue', k: '2026-01-01T00:00:00.000000Z', i: '00000000-0000-4000-8000-000000000000' })}`,
        'A Search Ordered By Relevance Pages By Offset',
      ],
    ] as const;
    for (const [query, message] of refused) {
      for (const path of ['/api/part', '/api/part/page']) {
        const res = await ctx().app.inject({ method: 'GET', url: `${path}?${query}` });
        expect(res.statusCode, `${path}?${query}: ${res.body}`).toBe(400);
        expect(res.json().error.code).toBe('invalid_data');
        expect(res.body).toContain(message);
      }
    }
    expect((await get('/api/part')).headers['x-total-count']).toBe(countBefore);
    // An edited cursor that is still a well-formed position of the same order is just another position.
    const elsewhere = encodeCursor({ o: 'price_asc', k: 999, i: '00000000-0000-4000-8000-000000000000' });
    const page = partListPageSchema.parse(
      (await get(`/api/part/page?sort=price_asc&limit=50&after=${elsewhere}`)).json(),
    );
    expect(page.items.every((p) => p.price >= 9.99)).toBe(true);
  });
});
