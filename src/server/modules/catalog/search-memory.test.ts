import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, TEST_SESSION_SECRET, type TestUser, testConfig } from '../../../../test/support/test-app.ts';
import { createTestDatabase, testDrivers } from '../../../../test/support/test-database.ts';
import { normalizePartNumber } from '../../../shared/part-numbers.ts';
import { buildApp } from '../../app.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { parts } from '../../db/schema.ts';
import { seedDemoData } from '../../db/seed.ts';
import { factRow } from './facts-test-helpers.ts';
import { FactTable } from './part-facts.ts';
import { relevance, SEARCH_CANDIDATES, type SearchPlan } from './part-search.ts';
import { firstNotBelow, searchCandidates, topByRelevance } from './part-search-memory.ts';
import {
  interner,
  parseTsquery,
  parseTsvector,
  rankOperands,
  SIGNATURE_WORDS,
  trigramsOf,
  tsRank,
  WordSimilarity,
  wordSimilarity,
  writeSignature,
} from './pg-text-rank.ts';
import { QUERIES } from './search-quality.fixture.ts';

/**
 * The search in memory (ADR 020) answers exactly what the SQL search answers (ADR 012). One database, two apps on it:
 * `facts` searches its in-memory facts, `plain` (CATALOG_FACTS=off) the database; the read cache is off on both. The
 * quality queries, the benchmark's kinds of search and a few the memory must refuse are compared with filters,
 * sorts, pages and facet counts, then after writes; and the JavaScript `ts_rank` and `word_similarity` are compared
 * with PostgreSQL's own.
 */
describe.each(testDrivers)('search in memory [%s]', (driver) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let facts: FastifyInstance;
  let plain: FastifyInstance;
  let admin: TestUser;

  async function app(overrides: Record<string, string>) {
    const config = testConfig({ CATALOG_CACHE: 'off', ...overrides });
    const built = await buildApp({ config, database, sessionSecret: TEST_SESSION_SECRET, logger: false });
    await built.ready();
    return built;
  }

  async function both(url: string) {
    const [a, b] = await Promise.all([facts.inject({ url }), plain.inject({ url })]);
    expect(a.statusCode, `${url} ${a.body}`).toBe(200);
    expect(b.statusCode, `${url} ${b.body}`).toBe(200);
    expect(a.json(), url).toEqual(b.json());
    for (const header of ['x-total-count', 'x-total-count-capped', 'link', 'x-next-cursor', 'x-prev-cursor']) {
      expect(a.headers[header], `${url} ${header}`).toEqual(b.headers[header]);
    }
    return a.json();
  }

  /** Until the facts have loaded what was written in bulk (a reload runs in the background). */
  async function factsReady() {
    const until = Date.now() + 10_000;
    for (;;) {
      const views = facts.partFacts?.stats.views ?? 0;
      await facts.inject({ url: '/api/part?q=brake&limit=1' });
      if ((facts.partFacts?.stats.views ?? 0) > views) return;
      if (Date.now() > until) throw new Error('the facts never loaded');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemoData(
      database.db,
      {
        ADMIN_EMAIL: 'boss@shop.com',
        ADMIN_PASSWORD: 'secret-pass',
        NODE_ENV: 'test',
        TEST_ONLY_FAST_PASSWORD_HASH: 'true',
      },
      { info: () => {}, warn: () => {} },
    );
    // Forty parts whose names and descriptions repeat the demo's words in different amounts and places, so the
    // ranks differ in their last digits and tie in places (ties go oldest first). Every fourth name is given twice
    // (as a parts shop names the same part for many bikes): a name's similarity is computed once a search.
    await database.db.execute(sql`
      insert into parts (name, img, price_cents, available_quantity, minimum_order, description, mpn, part_numbers,
                         brand_id, category_id, created_at)
      select
        (array['Brake Pads', 'Front Brake Disc', 'Chain Kit', 'Oil Filter', 'Riding Gloves'])[1 + n % 5]
          || (case when n % 4 = 0 then '' else ' ' || n end),
        '/images/parts/brake-disc.svg', 500 + 37 * (n % 9), n % 4, 1 + n % 2,
        repeat('brake pads for the road ', 1 + n % 3) || (case when n % 2 = 0 then 'sintered chain filter' else 'gloves' end),
        'BP-' || (700 + n % 7),
        -- Part 40's number is a word of other parts' names: the exact number must put it first.
        array['bp' || (700 + n % 7), 'mem' || n] || (case when n = 40 then array['chain'] else array[]::text[] end),
        (select id from brands order by slug limit 1 offset n % 3),
        (select id from categories order by slug limit 1 offset n % 4),
        now() - (n % 6) * interval '1 hour'
      from generate_series(1, 40) n`);
    facts = await app({});
    plain = await app({ CATALOG_FACTS: 'off' });
    admin = await createUser({ driver, app: facts, database, config: facts.config }, { admin: true });
    await factsReady();
  }, 60_000);

  afterAll(async () => {
    await facts?.close();
    await plain?.close();
    await database?.close();
  });

  const searches = [
    ...QUERIES.map(([query]) => query),
    // The benchmark's kinds (bench/search-latency.ts) and some more.
    'bp-777',
    'BP707',
    'mem12',
    'brake pads 12',
    'sintered brake',
    'front-brake',
    'gloves riding road',
    'kawasaki ka450 pads',
    'chain',
    'qqqqzzzz',
  ];

  it('answers every search as the database does: lists, pages, filters, sorts, facet counts', async () => {
    const before = facts.partFacts?.stats.views ?? 0;
    for (const query of searches) {
      const q = encodeURIComponent(query);
      await both(`/api/part?q=${q}&limit=24`);
      await both(`/api/part?q=${q}&limit=3&offset=2`);
      await both(`/api/part?q=${q}&limit=5&sort=price_asc&inStock=true`);
      await both(`/api/part/page?q=${q}&limit=4`);
      await both(`/api/part/page?q=${q}&limit=4&category=brakes`);
      await both(`/api/part/facets?q=${q}&minPrice=5&maxPrice=6`);
      // Newest first, every page by its cursor.
      let page = await both(`/api/part/page?q=${q}&limit=3&sort=newest`);
      for (let pages = 0; page.nextCursor && pages < 30; pages++) {
        page = await both(`/api/part/page?q=${q}&limit=3&sort=newest&after=${encodeURIComponent(page.nextCursor)}`);
      }
    }
    // The memory answered (a view per request), not the database behind it.
    expect(facts.partFacts?.stats.views ?? 0).toBeGreaterThan(before + searches.length * 6);
    const found = await both('/api/part?q=brake%20pads&limit=50');
    expect(found.length).toBeGreaterThan(10);
  });

  it('leaves to the database what it does not answer: symbols, a search by name order, suggestions', async () => {
    for (const url of [
      '/api/part?q=%25&limit=5',
      '/api/part?q=the&limit=5',
      '/api/part?q=brake&sort=name&limit=5',
      '/api/part/suggest?q=brak',
    ]) {
      await both(url);
    }
  });

  it('is fresh after writes: a rename, a new part from another connection, a removal', async () => {
    const [first] = (await both('/api/part?q=oil%20filter&limit=1')) as { _id: string }[];
    const renamed = await facts.inject({
      method: 'PATCH',
      url: `/api/part/${first?._id}`,
      headers: admin.headers,
      payload: { name: 'Quartzite Cartridge' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await both('/api/part?q=quartzite&limit=5');
    await both('/api/part?q=quartzit%20cartrige%20oil&limit=5');
    await database.db.execute(
      sql`insert into parts (name, img, price_cents, available_quantity, minimum_order, description)
          values ('Zirconia Brake Shoe', '/images/parts/brake-disc.svg', 900, 2, 1, 'a brake shoe')`,
    );
    const until = Date.now() + 5_000;
    while ((await facts.inject({ url: '/api/part?q=zirconia' })).headers['x-total-count'] !== '1') {
      if (Date.now() > until) throw new Error('the new part was never found');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await both('/api/part?q=zirconia%20brake&limit=5');
    await both('/api/part?q=brake%20shoe&limit=30');
    // A brand renamed outside the app: its word is searched at once (the word facts follow the notifications).
    await both('/api/part?q=ebc&limit=5');
    await database.db.execute(sql`update brands set name = 'Zeltronic' where slug = 'ebc'`);
    const renamedBy = Date.now() + 5_000;
    while ((await facts.inject({ url: '/api/part?q=zeltronic' })).headers['x-total-count'] === '0') {
      if (Date.now() > renamedBy) throw new Error('the renamed brand was never found');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await both('/api/part?q=zeltronic&limit=5');
    await both('/api/part?q=zeltronik%20pads&limit=5');
    const removed = await facts.inject({ method: 'DELETE', url: `/api/part/${first?._id}`, headers: admin.headers });
    expect(removed.statusCode).toBe(204);
    expect(await both('/api/part?q=quartzite&limit=5')).toEqual([]);
  });

  it('computes ts_rank and word_similarity as PostgreSQL does, to the last bit', async () => {
    const rows = rowsOf<{ name: string; vector: string }>(
      await database.db.execute(sql`select name, search_vector::text as vector from parts order by created_at, id`),
    );
    let compared = 0;
    for (const query of searches.slice(0, 60)) {
      const words = query.toLowerCase().split(/\s+/).filter(Boolean);
      const queries = rowsOf<{ q: string }>(
        await database.db.execute(
          sql`select plainto_tsquery('english', w)::text as q from unnest(${`{${words.map((w) => `"${w.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[]) w`,
        ),
      )
        .map((row) => row.q)
        .filter(Boolean);
      const lexemes = queries.map(parseTsquery);
      if (queries.length === 0 || lexemes.some((l) => l === undefined)) continue;
      const operands = rankOperands(lexemes.flat() as string[]);
      const and = queries.length === 1 && operands.length > 1;
      const tsquery = queries.map((q) => `(${q})`).join(' | ');
      const expected = rowsOf<{ rank: number; similarity: number }>(
        await database.db.execute(
          sql`select ts_rank('{0.1, 0.2, 0.4, 1.0}', search_vector, ${tsquery}::tsquery) as rank,
                     word_similarity(${query.toLowerCase()}, name) as similarity
              from parts order by created_at, id`,
        ),
      );
      rows.forEach((row, i) => {
        const vector = parseTsvector(row.vector);
        const rank = tsRank(
          operands.map((lexeme) => vector.get(lexeme)),
          and,
          vector.size === 0,
        );
        const similarity = wordSimilarity(trigramsOf(query.toLowerCase()), trigramsOf(row.name));
        expect(rank, `${query} / ${row.name}`).toBe(Math.fround(Number(expected[i]?.rank)));
        expect(similarity, `${query} / ${row.name}`).toBe(Math.fround(Number(expected[i]?.similarity)));
        compared += 1;
      });
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('keeps exactly the best of a page when it skips names that cannot reach it', async () => {
    const view = await facts.partFacts?.view();
    if (!view) throw new Error('no facts');
    let pruned = 0;
    for (const query of ['brake pads', 'brake', 'gloves riding', 'chain', 'bp-703', 'filter oil', 'pads']) {
      const text = query.toLowerCase();
      const words = await Promise.all(
        text.split(' ').map(async (word) => {
          const [row] = rowsOf<{ q: string }>(
            await database.db.execute(sql`select plainto_tsquery('english', ${word})::text as q`),
          );
          return { text: word, kind: 'word' as const, lexemes: parseTsquery(row?.q ?? '') };
        }),
      );
      const plan: SearchPlan = { text, number: normalizePartNumber(text), words, prefixLast: false };
      const rows = [...(await searchCandidates(view.table, plan, view.sources))];
      expect(rows.length, query).toBeGreaterThan(5);
      // The whole order, every row ranked, is the database's order by `relevance` ...
      const all = topByRelevance(view.table, plan, rows, rows.length).map((i) => view.table.ids[rows[i] as number]);
      const ids = rows.map((row) => view.table.ids[row] as string);
      const expected = rowsOf<{ id: string }>(
        await database.db.execute(
          sql`select ${parts.id} as id from ${parts} where ${parts.id} = any(${`{${ids.join(',')}}`}::uuid[])
              order by ${relevance(plan)} desc, ${parts.createdAt}, ${parts.id}`,
        ),
      ).map((row) => row.id);
      expect(all, query).toEqual(expected);
      // ... and every shorter page is its beginning, though fewer names were compared.
      for (let wanted = 1; wanted < rows.length; wanted++) {
        expect(
          topByRelevance(view.table, plan, rows, wanted).map((i) => view.table.ids[rows[i] as number]),
          `${query} ${wanted}`,
        ).toEqual(all.slice(0, wanted));
      }
      pruned += 1;
    }
    expect(pruned).toBe(7);
  });
});

describe('search candidates in memory', () => {
  it('are the rows every word matches, in row order, the first SEARCH_CANDIDATES of them, dead rows left out', async () => {
    const table = new FactTable();
    const lexemesOf = (i: number) =>
      [i % 2 === 0 ? 'alpha' : '', i % 3 === 0 ? 'beta' : '', i % 5 === 0 ? 'gamma' : '', i % 7 === 0 ? 'delta' : '']
        .filter(Boolean)
        .map((lexeme, position) => `'${lexeme}':${position + 1}C`)
        .join(' ');
    const ids: string[] = [];
    for (let i = 0; i < 9_000; i++) {
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      ids.push(id);
      table.put(factRow(id, { name: `Part ${i}`, searchVector: lexemesOf(i) }));
    }
    for (let i = 0; i < 9_000; i += 11) table.remove(ids[i] as string);
    const sources = {
      fittingVersion: 0,
      nameMatches: async () => new Int32Array(0),
      fittedToModels: async () => new Int32Array(0),
    };
    const word = (text: string) => ({ text, kind: 'word' as const, lexemes: [text] });
    for (const words of [['alpha'], ['alpha', 'beta'], ['beta', 'gamma', 'delta'], ['delta', 'alpha'], ['gamma']]) {
      const plan: SearchPlan = { text: words.join(' '), number: '', words: words.map(word), prefixLast: false };
      const expected: number[] = [];
      for (let row = 0; row < 9_000 && expected.length < SEARCH_CANDIDATES; row++) {
        const every = words.every((w) => lexemesOf(row).includes(`'${w}'`));
        if (every && row % 11 !== 0) expected.push(row);
      }
      expect([...(await searchCandidates(table, plan, sources))], words.join(' ')).toEqual(expected);
    }
  });
});

describe('firstNotBelow', () => {
  it('finds what a walk one by one finds, from any start, in lists with repeats and gaps', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 200; round++) {
      const list = Int32Array.from({ length: random(60) }, () => random(100)).sort();
      for (let from = 0; from <= list.length; from++) {
        for (const value of [-1, 0, random(100), random(100), 99, 100]) {
          let walked = from;
          while (walked < list.length && (list[walked] as number) < value) walked += 1;
          expect(firstNotBelow(list, from, value), `${list.join(',')} from ${from} for ${value}`).toBe(walked);
        }
      }
    }
  });
});

describe('word similarity bounds', () => {
  it('the signature bound is at least the trigram bound, which is at least the similarity', () => {
    const words = ['brake', 'brak', 'pads', 'pad', 'oil', 'filter', 'filtr', 'yamaha', 'chain', 'kit', 'ebc', 'x1'];
    let seed = 11;
    const pick = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return words[seed % words.length] as string;
    };
    const ids = new Map<string, number>();
    const intern = interner(ids);
    const texts = Array.from({ length: 300 }, () => Array.from(trigramsOf(`${pick()} ${pick()} ${pick()}`), intern));
    const pool = Int32Array.from(texts.flat());
    const signatures = new Int32Array(texts.length * SIGNATURE_WORDS);
    texts.forEach((text, row) => {
      writeSignature(signatures, row * SIGNATURE_WORDS, text);
    });
    let below = 0;
    for (let round = 0; round < 40; round++) {
      const search = Int32Array.from(trigramsOf(`${pick()} ${pick()}`), intern);
      const similarity = new WordSimilarity(search, ids.size);
      let start = 0;
      texts.forEach((text, row) => {
        const end = start + text.length;
        const exact = similarity.of(pool, start, end);
        const bound = similarity.bound(pool, start, end);
        const signature = similarity.signatureBound(signatures, row * SIGNATURE_WORDS);
        expect(bound).toBeGreaterThanOrEqual(exact);
        expect(signature).toBeGreaterThanOrEqual(bound);
        if (signature < 1) below += 1;
        start = end;
      });
    }
    // The signature refuses something: it is not 1 for every text.
    expect(below).toBeGreaterThan(1000);
  });
});
