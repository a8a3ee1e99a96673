import os from 'node:os';
import { type SQL, sql } from 'drizzle-orm';
import { PartRepository } from '../src/server/modules/catalog/part-repository.ts';
import { KnownVehicles } from '../src/server/modules/fitment/known-vehicles.ts';
import { PartFitmentRepository } from '../src/server/modules/fitment/part-fitment-repository.ts';
import { PartFitments } from '../src/server/modules/fitment/part-fitments.ts';
import { decodeCursor } from '../src/shared/cursor.ts';
import { seedCatalog } from './seed-catalog.ts';
import { createPostgresDatabase, dropPostgresDatabase, openBenchDatabase } from './support/database.ts';
import {
  formatFigures,
  type LoadFigures,
  measure,
  type StatementTiming,
  timeStatement,
  warmUp,
} from './support/load.ts';
import { benchPort, NO_LOAD_SHEDDING, startProductionServer } from './support/server.ts';

/**
 * Paging that does not slow down (ADR 017). On PostgreSQL with 100,000 parts (bench/seed-catalog.ts), page 1
 * against page 2,500 (limit 40: rows 99,961–100,000) of `GET /api/part`, for the catalogue order (no sort) and
 * `sort=price_asc`: page 2,500 by cursor (`after=`) and, for comparison, by `offset=99960`. The cursor of page 2,500
 * is the API's own: `GET /api/part?limit=1&offset=99959` answers the row before page 2,500 and, in `X-Next-Cursor`,
 * the position after it; the bench checks that the cursor page and the offset page hold the same parts.
 *
 *   node bench/catalog-paging.ts
 *   BENCH_POSTGRES=postgres://postgres@127.0.0.1:5432/postgres BENCH_DURATION=10 node bench/catalog-paging.ts
 *
 * Page 1 and page 2,500 by cursor take turns in BENCH_ROUNDS (3) runs of BENCH_DURATION seconds each, so
 * a shared machine's changing load weighs on both alike; each keeps its run of median p99. Prints autocannon's
 * p50/p99 at BENCH_CONNECTIONS (default 10) per run, the p99 ratio page 2,500 / page 1 (goal ≤ 2), the database work alone (the repository's statement, one caller, fastest and median of 60 runs: on a
 * shared machine closer to a quiet machine's figure than the HTTP ones), and EXPLAIN of the deep page's statements.
 * The server runs with CATALOG_CACHE=off: the read cache would serve both pages from memory and hide the paging.
 * The database (redline_bench_paging_<pid>) is created on BENCH_POSTGRES and dropped afterwards.
 */
const server = process.env.BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PARTS = Number(process.env.BENCH_PARTS ?? 100_000);
const LIMIT = 40;
const PAGE = Math.floor(PARTS / LIMIT);
const OFFSET = (PAGE - 1) * LIMIT;
const QUERY_RUNS = 60;
/** Page 1 and page 2,500 alternate in this many runs of BENCH_DURATION seconds each. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** The run of median p99 (the middle one of an odd number of runs). */
function medianRun(runs: LoadFigures[]): LoadFigures {
  const sorted = [...runs].sort((a, b) => a.p99Ms - b.p99Ms);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!middle) throw new Error('no runs');
  return middle;
}

const ORDERS = [
  { title: 'catalogue order', sort: '' },
  { title: 'price_asc', sort: '&sort=price_asc' },
] as const;

function load(): string {
  return os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
}

async function cursorBefore(base: string, sort: string, offset: number): Promise<string> {
  const res = await fetch(`${base}/api/part?limit=1&offset=${offset - 1}${sort}`);
  const cursor = res.headers.get('x-next-cursor');
  if (!res.ok || !cursor) throw new Error(`no cursor at offset ${offset - 1} (${res.status})`);
  return cursor;
}

async function ids(url: string): Promise<string[]> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return ((await res.json()) as { _id: string }[]).map((p) => p._id);
}

/** The repository's statement alone, one caller: fastest and median of QUERY_RUNS. */
async function queryTimes(databaseUrl: string, cursors: Map<string, string>) {
  const { handle, close } = await openBenchDatabase({ databaseUrl, describe: 'bench' });
  try {
    const parts = new PartRepository(
      handle.db,
      new PartFitments(new PartFitmentRepository(handle.db), new KnownVehicles()),
    );
    const rows: StatementTiming[] = [];
    for (const order of ORDERS) {
      const sort = order.sort ? ('price_asc' as const) : undefined;
      const after = decodeCursor(cursors.get(order.title) ?? '');
      const cases: [string, () => Promise<unknown>][] = [
        [`${order.title}: page 1`, () => parts.list({}, { sort, limit: LIMIT })],
        [`${order.title}: page ${PAGE} by cursor`, () => parts.list({}, { sort, limit: LIMIT, after })],
        [`${order.title}: page ${PAGE} by offset`, () => parts.list({}, { sort, limit: LIMIT, offset: OFFSET })],
      ];
      for (const [title, run] of cases) rows.push(await timeStatement(title, run, QUERY_RUNS));
    }
    // The plans of the deep page in every order the list offers: the statement the repository sends (its keys,
    // order and limit + 1), the cursor of page 2,500 taken from the repository's own answer for the row before it.
    const plans: string[] = [];
    const planned: [string, 'newest' | 'price_asc' | 'price_desc' | 'name' | undefined, SQL, SQL, string][] = [
      ['catalogue order', undefined, sql`p.created_at`, sql`timestamptz`, 'asc nulls first'],
      ['newest', 'newest', sql`p.created_at`, sql`timestamptz`, 'desc nulls last'],
      ['price_asc', 'price_asc', sql`p.price_cents`, sql`int`, 'asc nulls last'],
      ['price_desc', 'price_desc', sql`p.price_cents`, sql`int`, 'desc nulls first'],
      ['name', 'name', sql`p.name`, sql`text`, 'asc nulls last'],
    ];
    for (const [title, sort, column, type, direction] of planned) {
      const before = await parts.list({}, { sort, limit: 1, offset: OFFSET - 1 });
      const after = before.next;
      if (!after) continue;
      const compare = direction.startsWith('asc') ? sql`>` : sql`<`;
      const order = sql.raw(direction);
      const result = await handle.db.execute(sql`explain (analyze, buffers off, costs off, timing off, summary on)
        select p.id, p.name, b.slug, c.slug from parts p
          left join brands b on b.id = p.brand_id left join categories c on c.id = p.category_id
          left join categories pc on pc.id = c.parent_id
        where (${column}, p.id) ${compare} (${after.k}::${type}, ${after.i}::uuid)
        order by ${column} ${order}, p.id ${order} limit ${LIMIT + 1}`);
      const lines = (Array.isArray(result) ? result : (result as { rows: Record<string, string>[] }).rows).map(
        (row) => Object.values(row as Record<string, string>)[0],
      );
      // The scan of parts and its condition are what matter; the joins of 40 rows are left out of the print.
      const kept = lines.filter((line) => /parts|Index Cond|Recheck|Execution|Limit|Sort Key/.test(line ?? ''));
      plans.push(`${title}, page ${PAGE} by cursor:\n    ${kept.map((line) => line?.trim()).join('\n    ')}`);
    }
    return { rows, plans };
  } finally {
    await close();
  }
}

const name = `redline_bench_paging_${process.pid}`;
console.log(`${new Date().toISOString()}  ${os.cpus().length} CPUs, load ${load()}, Node ${process.version}`);
const databaseUrl = await createPostgresDatabase(server, name);
try {
  const started = performance.now();
  await seedCatalog({ databaseUrl, describe: name }, PARTS);
  console.log(`${PARTS} parts seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const app = await startProductionServer({
    port: await benchPort(),
    databaseUrl,
    // The catalogue read cache would answer every page from memory: the paging is measured without.
    env: { SEED_DEMO_DATA: 'false', CATALOG_CACHE: 'off', ...NO_LOAD_SHEDDING },
  });
  const figures: LoadFigures[] = [];
  const ratios: string[] = [];
  const cursors = new Map<string, string>();
  try {
    const base = app.baseUrl;
    for (const order of ORDERS) {
      const cursor = await cursorBefore(base, order.sort, OFFSET);
      cursors.set(order.title, cursor);
      const urls = {
        first: `/api/part?limit=${LIMIT}${order.sort}`,
        cursor: `/api/part?limit=${LIMIT}${order.sort}&after=${cursor}`,
        offset: `/api/part?limit=${LIMIT}${order.sort}&offset=${OFFSET}`,
      };
      const byCursor = await ids(`${base}${urls.cursor}`);
      const byOffset = await ids(`${base}${urls.offset}`);
      if (byCursor.length !== LIMIT || byCursor.join() !== byOffset.join()) {
        throw new Error(`${order.title}: page ${PAGE} by cursor differs from the offset page`);
      }
      const row = async (title: string, url: string, seconds: number) => {
        const figure = await measure({ title, url: `${base}${url}`, connections, durationSeconds: seconds });
        console.log(
          `  ${title.padEnd(42)} p50 ${String(figure.p50Ms).padStart(4)} ms  p99 ${String(figure.p99Ms).padStart(4)} ms  ${figure.requestsPerSecond.toFixed(0)} req/s  (load ${load()})`,
        );
        if (figure.non2xx || figure.errors) {
          const statuses = await Promise.all(
            Array.from({ length: 20 }, () => fetch(`${base}${url}`).then((r) => r.status)),
          );
          console.log(`  statuses of 20 parallel requests: ${statuses.join(' ')}`);
          throw new Error(`${title}: ${figure.non2xx} non-2xx, ${figure.errors} errors`);
        }
        return figure;
      };
      // Page 1 and the deep page take turns in ROUNDS short runs, so a load that changes on a shared machine
      // weighs on both alike; each keeps its median run (by p99). The offset page is measured once, for comparison.
      await warmUp(`${base}${urls.first}`);
      await warmUp(`${base}${urls.cursor}`);
      const firstRuns: LoadFigures[] = [];
      const deepRuns: LoadFigures[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        firstRuns.push(await row(`${order.title}: page 1 (round ${round})`, urls.first, duration));
        deepRuns.push(await row(`${order.title}: page ${PAGE} by cursor (round ${round})`, urls.cursor, duration));
      }
      const first = { ...medianRun(firstRuns), title: `${order.title}: page 1` };
      const deep = { ...medianRun(deepRuns), title: `${order.title}: page ${PAGE} by cursor` };
      const offset = await row(`${order.title}: page ${PAGE} by offset`, urls.offset, duration);
      figures.push(first, deep, offset);
      const ratio = deep.p99Ms / Math.max(1, first.p99Ms);
      ratios.push(
        `${order.title}: p99 page ${PAGE} by cursor / page 1 = ${ratio.toFixed(2)} (goal ≤ 2: ${ratio <= 2 ? 'met' : 'NOT met'}); by offset ${(offset.p99Ms / Math.max(1, first.p99Ms)).toFixed(2)}`,
      );
    }
  } finally {
    await app.stop();
  }
  console.log(
    `\nGET /api/part at ${PARTS} parts, limit ${LIMIT}, ${connections} connections, ${duration} s per case (page 1 and cursor: median of ${ROUNDS} alternating runs)`,
  );
  console.log(formatFigures(figures));
  console.log(ratios.join('\n'));
  const { rows, plans } = await queryTimes(databaseUrl, cursors);
  console.log('\nThe repository statement alone (one caller, no HTTP):');
  for (const r of rows)
    console.log(`  ${r.title.padEnd(42)} fastest ${r.minMs.toFixed(2)} ms  median ${r.medianMs.toFixed(2)} ms`);
  console.log(`\n${plans.join('\n')}`);
  console.log(`\nload average at the end: ${load()}`);
} finally {
  await dropPostgresDatabase(server, name);
}
