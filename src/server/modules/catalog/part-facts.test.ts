import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUser,
  TEST_SESSION_SECRET,
  type TestContext,
  type TestUser,
  testConfig,
} from '../../../../test/support/test-app.ts';
import { createTestDatabase, testDrivers } from '../../../../test/support/test-database.ts';
import type { Vehicle } from '../../../shared/schemas/fitment.ts';
import { buildApp } from '../../app.ts';
import { VehicleBuilder } from '../fitment/fitment-test-helpers.ts';
import { factRow } from './facts-test-helpers.ts';
import { FactTable, KeptPageRows, RANK_DOUBLES, RANK_SIGNATURE } from './part-facts.ts';
import type { PartRow } from './part-repository.ts';
import { SIGNATURE_WORDS, writeSignature } from './pg-text-rank.ts';

/**
 * The catalogue's in-memory facet facts (issue 13, ADR 019) answer exactly what the database answers. One database,
 * two apps on it: `facts` counts a vehicle's parts in memory, `sql` (CATALOG_FACTS=off) in the facet statement; the
 * read cache is off on both so every request computes. Every answer of the one is compared with the other's, over
 * filters, orders, cursors forwards and backwards, offsets, and after writes through the API, from another
 * connection (as another instance would), and in bulk.
 */
describe.each(testDrivers)('facet facts [%s]', (driver) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let facts: FastifyInstance;
  let plain: FastifyInstance;
  let admin: TestUser;
  let yz2019: Vehicle;
  let mt2019abs: Vehicle;
  const partIds: string[] = [];

  const brandsOf = ['EBC', 'KMC', 'Shoei', 'Galfer', 'Twin Air'];
  const categoriesOf = ['brake-pads', 'brake-discs', 'chains', 'filters', 'helmets', 'gloves', 'brakes', 'gear'];

  async function app(overrides: Record<string, string>) {
    const config = testConfig({ CATALOG_CACHE: 'off', ...overrides });
    const built = await buildApp({ config, database, sessionSecret: TEST_SESSION_SECRET, logger: false });
    await built.ready();
    return built;
  }

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    facts = await app({});
    plain = await app({ CATALOG_FACTS: 'off' });
    const context: TestContext = { driver, app: facts, database, config: facts.config };
    admin = await createUser(context, { admin: true });
    const build = new VehicleBuilder(facts, admin.headers);
    yz2019 = await build.vehicle('Yamaha', 'YZ250F', 2019);
    await build.vehicle('Yamaha', 'YZ250F', 2016);
    mt2019abs = await build.vehicle('Yamaha', 'MT-07', 2019, { variant: 'ABS' });
    const yz = await build.model('Yamaha', 'YZ250F');
    const mt = await build.model('Yamaha', 'MT-07');
    // 48 parts: repeated prices (ties broken by id), stock below the minimum order, parts without brand or
    // category, universal parts, fitment by year range and by variant, some fitting nothing asked for.
    for (let i = 0; i < 48; i++) {
      const fitment =
        i % 9 === 0
          ? []
          : [
              { modelId: yz, yearFrom: 2014 + (i % 6), yearTo: 2014 + (i % 6) + (i % 5) },
              ...(i % 4 === 0
                ? [{ modelId: mt, yearFrom: 2017, yearTo: 2021, ...(i % 8 === 0 ? { variant: 'ABS' } : {}) }]
                : []),
              ...(i % 3 === 0 ? [{ modelId: yz, yearFrom: 2019, yearTo: 2019 }] : []),
            ];
      const res = await facts.inject({
        method: 'POST',
        url: '/api/part',
        headers: admin.headers,
        payload: {
          name: `Facts part ${i}`,
          img: '/images/parts/brake-disc.svg',
          price: 5 + ((i * 37) % 12) * 10,
          availablequantity: i % 5 === 0 ? 0 : i % 7,
          minimunorder: i % 6 === 0 ? 3 : 1,
          ...(i % 11 === 0 ? {} : { brand: brandsOf[i % brandsOf.length] }),
          ...(i % 13 === 0 ? {} : { category: categoriesOf[i % categoriesOf.length] }),
          ...(i % 9 === 0 ? { universal: true } : { fitment }),
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      partIds.push(res.json()._id);
    }
  });

  afterAll(async () => {
    await facts?.close();
    await plain?.close();
    await database?.close();
  });

  async function both(url: string) {
    const [a, b] = await Promise.all([facts.inject({ url }), plain.inject({ url })]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    return { facts: a.json(), plain: b.json(), headers: a.headers };
  }

  /** Every page of a list, forwards by `next` and back by `prev`, each compared between the two apps. */
  async function walk(query: string) {
    let url = `/api/part/page?${query}`;
    const seen: string[][] = [];
    for (let pages = 0; pages < 30; pages++) {
      const page = await both(url);
      expect(page.facts, url).toEqual(page.plain);
      seen.push(page.facts.items.map((p: { _id: string }) => p._id));
      if (!page.facts.nextCursor) break;
      url = `/api/part/page?${query}&after=${encodeURIComponent(page.facts.nextCursor)}`;
    }
    for (let pages = 0; pages < 30; pages++) {
      const page = await both(url);
      expect(page.facts, url).toEqual(page.plain);
      if (!page.facts.prevCursor) break;
      url = `/api/part/page?${query}&before=${encodeURIComponent(page.facts.prevCursor)}`;
    }
    return seen;
  }

  const filters = [
    '',
    '&category=brakes',
    '&category=brake-pads',
    '&category=tools',
    '&brand=ebc',
    '&brand=no-such-brand',
    '&minPrice=20&maxPrice=80',
    '&inStock=true',
    '&category=gear&inStock=true&minPrice=10',
    '&brand=kmc&category=chains&maxPrice=100',
  ];

  it('answers every filter, order and page as the facet statement does, forwards and backwards', async () => {
    const before = facts.partFacts?.stats.views ?? 0;
    for (const vehicle of [yz2019, mt2019abs]) {
      for (const filter of filters) {
        for (const sort of ['', '&sort=newest', '&sort=price_asc', '&sort=price_desc']) {
          const pages = await walk(`vehicle=${vehicle.id}&fits=true&limit=5${filter}${sort}`);
          expect(pages.flat().length).toBe(new Set(pages.flat()).size);
        }
        // The list call (spec shape, X-Total-Count and Link headers) pages the same way.
        for (const query of [`limit=5${filter}`, `limit=4&offset=3&sort=price_desc${filter}`, `sort=newest${filter}`]) {
          const url = `/api/part?vehicle=${vehicle.id}&fits=true&${query}`;
          const [a, b] = await Promise.all([facts.inject({ url }), plain.inject({ url })]);
          expect(a.statusCode, a.body).toBe(200);
          expect(a.json(), url).toEqual(b.json());
          for (const header of ['x-total-count', 'x-total-count-capped', 'link', 'x-next-cursor', 'x-prev-cursor']) {
            expect(a.headers[header], `${url} ${header}`).toEqual(b.headers[header]);
          }
        }
        const offset = await both(`/api/part/page?vehicle=${vehicle.id}&fits=true&limit=4&offset=3${filter}`);
        expect(offset.facts).toEqual(offset.plain);
        const counts = await both(`/api/part/facets?vehicle=${vehicle.id}&fits=true${filter}`);
        expect(counts.facts).toEqual(counts.plain);
      }
    }
    // The facts answered (not the database behind them): a view per request; the pages' rows came from memory too.
    expect(facts.partFacts?.stats.views ?? 0).toBeGreaterThan(before + 100);
    expect(facts.partFacts?.stats.pageRows ?? 0).toBeGreaterThan(10);
    expect(plain.partFacts).toBeUndefined();
    // Something is actually counted: the vehicle has fitting and universal parts across several pages.
    const first = await both(`/api/part/page?vehicle=${yz2019.id}&fits=true&limit=5`);
    expect(first.facts.total).toBeGreaterThan(10);
    expect(first.facts.facets.brands.length).toBeGreaterThan(2);
  });

  it('is fresh after writes through the API: price, stock, category, universal, fitment, removal', async () => {
    const url = `/api/part/page?vehicle=${yz2019.id}&fits=true&limit=8&sort=price_asc`;
    const same = async () => {
      const page = await both(url);
      expect(page.facts).toEqual(page.plain);
      const counts = await both(`/api/part/facets?vehicle=${yz2019.id}&fits=true&inStock=true`);
      expect(counts.facts).toEqual(counts.plain);
      return page.facts;
    };
    await same();
    const views = facts.partFacts?.stats.views ?? 0;
    const fitting = (await both(`/api/part/page?vehicle=${yz2019.id}&fits=true&limit=6&sort=price_desc`)).facts;
    const [a, b, c, d] = fitting.items.map((p: { _id: string }) => p._id) as [string, string, string, string];
    const update = async (id: string, changes: Record<string, unknown>) => {
      const res = await facts.inject({
        method: 'PATCH',
        url: `/api/part/${id}`,
        headers: admin.headers,
        payload: changes,
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await update(a, { price: 1 });
    expect((await same()).items[0]._id).toBe(a);
    await update(b, { availablequantity: 0 });
    await same();
    await update(c, { category: 'gauges', universal: true });
    await same();
    await update(d, { fitment: [] });
    await same();
    const removed = await facts.inject({ method: 'DELETE', url: `/api/part/${a}`, headers: admin.headers });
    expect(removed.statusCode).toBe(204);
    expect((await same()).items.some((p: { _id: string }) => p._id === a)).toBe(false);
    // Answered from the facts (the first page, then two per `same` after each of five writes), not by the database.
    expect(facts.partFacts?.stats.views ?? 0).toBeGreaterThanOrEqual(views + 11);
  });

  it('hears writes made elsewhere (another connection, as another instance) and bulk writes', async () => {
    const facets = `/api/part/facets?vehicle=${yz2019.id}&fits=true`;
    const page = `/api/part/page?vehicle=${yz2019.id}&fits=true&limit=10&sort=price_desc`;
    const agree = async () => {
      for (const url of [facets, page]) {
        const answer = await both(url);
        if (JSON.stringify(answer.facts) !== JSON.stringify(answer.plain)) return false;
      }
      return true;
    };
    const eventually = async () => {
      const until = Date.now() + 5_000;
      while (!(await agree())) {
        if (Date.now() > until) throw new Error('the facts never caught up with the database');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    expect(await agree()).toBe(true);
    // One part, written with SQL outside the app: its notification names it.
    const cheapest = await both(`/api/part/page?vehicle=${yz2019.id}&fits=true&limit=1&sort=price_asc`);
    const one = cheapest.facts.items[0]._id as string;
    await database.db.execute(sql`update parts set price_cents = 999900 where id = ${one}`);
    await eventually();
    expect((await both(page)).facts.items[0]._id).toBe(one);
    const partsRead = facts.partFacts?.stats.partsRead ?? 0;
    const reloads = facts.partFacts?.stats.reloads ?? 0;
    // Sixty more parts (one statement: the trigger names them), then every part at once: more than the trigger names,
    // so everything is read again (the database answers meanwhile).
    await database.db.execute(
      sql`insert into parts (name, img, price_cents, available_quantity, minimum_order, universal)
          select 'Bulk part ' || n, '/images/parts/brake-disc.svg', 100 * n, n % 3, 1, n % 2 = 0 from generate_series(1, 60) n`,
    );
    await eventually();
    await database.db.execute(sql`update parts set available_quantity = available_quantity + 1`);
    await eventually();
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(await agree()).toBe(true);
    expect(facts.partFacts?.stats.reloads).toBeGreaterThan(reloads);
    expect(facts.partFacts?.stats.partsRead).toBeGreaterThanOrEqual(partsRead);
    // A notification the trigger did not send (not uuids) is not asked for: everything is read again instead.
    await database.db.execute(sql`select pg_notify('redline_catalog', 'parts:not-a-uuid')`);
    await eventually();
    // Fitment rows and brands changed outside the app.
    await database.db.execute(sql`delete from part_fitments where part_id = ${partIds[2] as string}`);
    await database.db.execute(sql`update brands set name = 'EBC Brakes' where slug = 'ebc'`);
    await eventually();
    expect((await both(facets)).facts.brands.some((b: { name: string }) => b.name === 'EBC Brakes')).toBe(true);
    // The page's kept rows carry the new name as well (a row names its brand).
    const ebc = await both(`/api/part/page?vehicle=${yz2019.id}&fits=true&limit=40&brand=ebc`);
    expect(ebc.facts.items.length).toBeGreaterThan(0);
    expect(ebc.facts).toEqual(ebc.plain);
    expect(JSON.stringify(ebc.facts.items)).toContain('EBC Brakes');
  });

  it('reads kept page rows again after writes elsewhere name them: the part, then its brand', async () => {
    const url = `/api/part/page?vehicle=${yz2019.id}&fits=true&limit=3&sort=price_desc&brand=kmc`;
    type Item = { _id: string; desription: string; brand: { name: string } | null };
    const until = (what: string) => {
      const deadline = Date.now() + 5_000;
      return async () => {
        if (Date.now() > deadline) throw new Error(what);
        await new Promise((resolve) => setTimeout(resolve, 25));
      };
    };
    // Asked twice once the facts answer (a reload may follow the bulk writes above): the second is from kept rows.
    const kept = async () => {
      const wait = until('the facts never answered');
      for (;;) {
        const views = facts.partFacts?.stats.views ?? 0;
        await both(url);
        if ((facts.partFacts?.stats.views ?? 0) > views) break;
        await wait();
      }
      const page = await both(url);
      expect(page.facts).toEqual(page.plain);
      return page.facts.items as Item[];
    };
    const shows = async (seen: (item: Item) => boolean) => {
      const wait = until('a kept row was never read again');
      for (;;) {
        const page = await both(url);
        if (page.facts.items.length > 0 && seen(page.facts.items[0])) {
          expect(page.facts).toEqual(page.plain);
          return;
        }
        await wait();
      }
    };
    const [top] = await kept();
    expect(top?.brand?.name).toBeDefined();
    // Only the description: none of the facts' own columns (price, stock, name) changes.
    await database.db.execute(sql`update parts set description = 'Rewritten elsewhere' where id = ${top?._id}`);
    await shows((item) => item.desription === 'Rewritten elsewhere');
    await kept();
    // A brand's name is in its parts' rows; the brand's notification names no part.
    await database.db.execute(sql`update brands set name = 'KMC Chains' where slug = 'kmc'`);
    await shows((item) => item.brand?.name === 'KMC Chains');
  });
});

describe('kept page rows', () => {
  const row = (id: string, name = id) => ({ id, name }) as unknown as PartRow;

  it('keeps the rows read at the current generation, the least recently shown going first', () => {
    const kept = new KeptPageRows(2);
    kept.keep([row('a'), row('b')], kept.generation);
    expect(kept.get('a')?.name).toBe('a');
    kept.keep([row('c')], kept.generation);
    // 'b' was shown least recently ('a' was asked for after it).
    expect(kept.get('b')).toBeUndefined();
    expect(kept.get('a')?.name).toBe('a');
    expect(kept.get('c')?.name).toBe('c');
    expect(Object.isFrozen(kept.get('a'))).toBe(true);
  });

  it('forgets the rows a write names, and refuses rows read before any write was heard', () => {
    const kept = new KeptPageRows(10);
    kept.keep([row('a'), row('b')], kept.generation);
    const readStarted = kept.generation;
    kept.forget(['a']);
    expect(kept.get('a')).toBeUndefined();
    expect(kept.get('b')?.name).toBe('b');
    // Read before the write was heard: perhaps older than it.
    kept.keep([row('a', 'old a'), row('c')], readStarted);
    expect(kept.get('a')).toBeUndefined();
    expect(kept.get('c')).toBeUndefined();
    kept.clear();
    expect(kept.size).toBe(0);
  });
});

describe('fact table order', () => {
  it('orders oldest first, then by id as PostgreSQL orders uuids (as text), also when ids share their first digits', () => {
    const table = new FactTable();
    const ids = [
      'ffffffff-ffff-4fff-8fff-ffffffffffff',
      '00000000-0000-4000-8000-000000000000',
      '0123abcd-ef01-4aaa-8000-000000000001',
      '0123abcd-ef01-4aaa-8000-000000000000',
      '0123abcd-ef01-4aab-8000-000000000000',
      '0123abcd-ef02-4aaa-8000-000000000000',
      'a0000000-0000-4000-8000-000000000000',
      '9fffffff-ffff-4fff-bfff-ffffffffffff',
    ];
    ids.forEach((id, i) => {
      // Two moments: most rows share one (created in one statement).
      table.put(factRow(id, { createdMicros: i === 1 ? 2_000_000 : 1_000_000 }));
    });
    const rows = ids.map((_, row) => row).sort((a, b) => table.olderFirst(a, b));
    const expected = ids
      .map((id, row) => ({ id, row, created: row === 1 ? 2 : 1 }))
      .sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((entry) => entry.row);
    expect(rows).toEqual(expected);
  });

  it('keeps the rank keys of each row side by side: age, id key and its name signature, also after a rename', () => {
    const table = new FactTable();
    const id = '0123abcd-ef01-4aaa-8000-000000000001';
    table.put(factRow(id, { name: 'Riding Gloves', createdMicros: 5_000_000 }));
    table.put(factRow(id, { name: 'Brake Pads Deluxe', createdMicros: 5_000_000 }));
    const row = table.rowOf.get(id) as number;
    expect(table.rankKeys[row * RANK_DOUBLES]).toBe(5_000_000);
    // The id's first 13 hex digits ('0123abcd', 'ef01', '4').
    expect(table.rankKeys[row * RANK_DOUBLES + 1]).toBe(0x0123abcdef014);
    const { at, count, ints } = table.search.trigrams;
    const expected = new Int32Array(SIGNATURE_WORDS);
    writeSignature(expected, 0, ints.subarray(at[row] as number, (at[row] as number) + (count[row] as number)));
    const start = row * 2 * RANK_DOUBLES + RANK_SIGNATURE;
    expect([...table.rankInts.subarray(start, start + SIGNATURE_WORDS)]).toEqual([...expected]);
    expect([...expected].some((word) => word !== 0)).toBe(true);
  });
});
