import { fileURLToPath } from 'node:url';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { openBenchDatabase } from './support/database.ts';

/**
 * A fitment catalogue for benchmarks (PostgreSQL): 30 makes × 10 models × 21 model years (2005–2025) = 6,300
 * vehicles, 200 brands, `parts` parts spread over the leaf categories, ten fitment rows each (a model and a range of
 * 1–7 model years). The vehicle asked about, V, is the 2019 model year of one model. Two shapes:
 *
 * - `fixed`: V is fitted by the same 500 parts, and 200 parts are universal, whatever the catalogue's size; every
 *   other part fits other models only. Growing the catalogue adds parts and rows V does not match: what it measures
 *   is whether the cost of V's page grows with the catalogue (the budget, ADR 025).
 * - `spread`: every part's rows go to models chosen by a multiplicative hash and one part in a hundred is
 *   universal, so V's fitting set grows with the catalogue (19 parts at 1,000, about 1,950 at 100,000).
 *
 *   DATABASE_URL=postgres://…/x node bench/fitment-seed.ts 100000 fixed     # into an existing, empty database
 */
export type BenchShape = 'fixed' | 'spread';
export const FITMENT_ROWS_PER_PART = 10;
const MAKES = 30;
const MODELS_PER_MAKE = 10;
const BRANDS = 200;
const FIXED_FITTING = 500;
const FIXED_UNIVERSAL = 200;

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows);

/** Vehicles, brands, parts and fitment rows in a few set-based statements (seeding through HTTP would take hours). */
export async function seedFitmentBench(
  databaseUrl: string,
  parts: number,
  shape: BenchShape,
): Promise<{ vehicleId: string; fitmentRows: number }> {
  // Migrated the way the server does it; the bulk statements then run on a client without the server's
  // statement timeout (they take longer than any request may).
  const { close: closeMigrated } = await openBenchDatabase({ databaseUrl, describe: 'bench' });
  await closeMigrated();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await seedFitmentRows(drizzle(client), parts, shape);
    return await benchVehicle(client);
  } finally {
    await client.end();
  }
}

/** What the seeding statements need of a database: PostgreSQL's client here, PGlite's for bench/search-latency.ts. */
export interface BenchSqlRunner {
  execute(query: SQL): Promise<unknown>;
}

/** The set-based statements of `seedFitmentBench`, on any migrated, empty database. */
export async function seedFitmentRows(db: BenchSqlRunner, parts: number, shape: BenchShape): Promise<void> {
  // Part i's place in a permutation of 1..parts (7 is prime to 1,000 and 100,000): V's parts are spread over the
  // catalogue's age order, not bunched at its start.
  const slot = sql.raw(`((i * 7) % ${parts})`);
  const universal =
    shape === 'fixed'
      ? sql`${slot} >= ${FIXED_FITTING} and ${slot} < ${FIXED_FITTING + FIXED_UNIVERSAL}`
      : sql`i % 100 = 0`;
  {
    await db.execute(sql`
      insert into vehicle_makes (name) select 'Make ' || m from generate_series(1, ${MAKES}) m`);
    await db.execute(sql`
      insert into vehicle_models (make_id, name, type)
      select mk.id, 'Model ' || mk.name || '-' || n, 'motorcycle'
      from vehicle_makes mk cross join generate_series(1, ${MODELS_PER_MAKE}) n`);
    await db.execute(sql`
      insert into vehicles (model_id, year) select md.id, y from vehicle_models md cross join generate_series(2005, 2025) y`);
    await db.execute(sql`
      insert into brands (slug, name) select 'brand-' || b, 'Brand ' || b from generate_series(1, ${BRANDS}) b`);
    await db.execute(sql`
      with leaf as (select array_agg(id order by slug) as ids from categories where parent_id is not null),
           brand as (select array_agg(id order by slug) as ids from brands)
      insert into parts (name, description, img, price_cents, available_quantity, minimum_order, created_by_email,
                         created_at, brand_id, category_id, mpn, part_numbers, universal)
      select 'Bench part ' || i, 'A bench part for sport and touring bikes.', '/images/parts/brake-pads.svg',
             100 + (i * 7919) % 99900, (i * 31) % 200, 1 + i % 5, 'bench@redline.dev',
             now() - (${parts} - i) * interval '1 second',
             brand.ids[1 + i % cardinality(brand.ids)], leaf.ids[1 + i % cardinality(leaf.ids)],
             'BP-' || i, array['bp' || i], ${universal}
      from generate_series(1, ${parts}) i, leaf, brand`);
    // V's model is the first model by id. `fixed`: the V parts' first row covers V's model 2015–2022, every other
    // row goes to the other 299 models; `spread`: every row to any model by the hash. Ranges of 1–7 years.
    const modelOf =
      shape === 'fixed'
        ? sql`case when r = 0 and ${slot} < ${FIXED_FITTING} then model.ids[1] else model.ids[2 + (h * 2654435761) % (cardinality(model.ids) - 1)] end`
        : sql`model.ids[1 + (h * 2654435761) % cardinality(model.ids)]`;
    const fromOf =
      shape === 'fixed'
        ? sql`case when r = 0 and ${slot} < ${FIXED_FITTING} then 2015 else 2005 + (h * 40503) % 21 end`
        : sql`2005 + (h * 40503) % 21`;
    const spanOf =
      shape === 'fixed'
        ? sql`case when r = 0 and ${slot} < ${FIXED_FITTING} then 7 else (h * 97) % 7 end`
        : sql`(h * 97) % 7`;
    await db.execute(sql`
      with model as (select array_agg(id order by id) as ids from vehicle_models),
           part as (select id, row_number() over (order by created_at, id) as i from parts),
           rows as (
             select part.id as part_id, part.i as i, r, (part.i * 10 + r) as h
             from part cross join generate_series(0, ${FITMENT_ROWS_PER_PART - 1}) r
           )
      insert into part_fitments (part_id, model_id, year_from, year_to)
      select rows.part_id, ${modelOf}, ${fromOf}, least(2025, ${fromOf} + ${spanOf})
      from rows, model`);
    await db.execute(sql`
      create table bench_vehicle as
      select v.id from vehicles v where v.year = 2019 and v.model_id = (select min(id::text)::uuid from vehicle_models)`);
    // As autovacuum would leave a long-running database: statistics, and a visibility map for index-only scans.
    await db.execute(sql`vacuum analyze`);
  }
}

/** The vehicle a seeded database is asked about, and its fitment row count. */
export async function benchVehicle(client: pg.Client): Promise<{ vehicleId: string; fitmentRows: number }> {
  const db = drizzle(client);
  const [vehicle] = rowsOf<{ id: string }>(await db.execute(sql`select id from bench_vehicle`));
  const [rows] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from part_fitments`));
  if (!vehicle) throw new Error('no vehicle seeded');
  return { vehicleId: vehicle.id, fitmentRows: Number(rows?.n ?? 0) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('Set DATABASE_URL to an empty PostgreSQL database');
  const started = performance.now();
  const shape = process.argv[3] === 'spread' ? 'spread' : 'fixed';
  const { vehicleId, fitmentRows } = await seedFitmentBench(databaseUrl, Number(process.argv[2] ?? 100_000), shape);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${fitmentRows} fitment rows in ${seconds} s; the vehicle to ask about: ${vehicleId}`);
}
