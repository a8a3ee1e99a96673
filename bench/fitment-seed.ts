import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { openBenchDatabase } from './support/database.ts';

/**
 * A fitment catalogue for benchmarks (PostgreSQL): 30 makes × 10 models × 21 model years (2005–2025) = 6,300
 * vehicles, 200 brands, `parts` parts over the leaf categories with ten fitment rows each (a model chosen by a
 * multiplicative hash, so evenly spread, and a range of 1–7 model years), one part in a hundred universal.
 *
 *   DATABASE_URL=postgres://…/x node bench/fitment-seed.ts 100000     # into an existing, empty database
 */
export const FITMENT_ROWS_PER_PART = 10;
const MAKES = 30;
const MODELS_PER_MAKE = 10;
const BRANDS = 200;

/** Vehicles, brands, parts and fitment rows in a few set-based statements (seeding through HTTP would take hours). */
export async function seedFitmentBench(
  databaseUrl: string,
  parts: number,
): Promise<{ vehicleId: string; fitmentRows: number }> {
  // Migrated the way the server does it; the bulk statements then run on a client without the server's
  // statement timeout (they take longer than any request may).
  const { close: closeMigrated } = await openBenchDatabase({ databaseUrl, describe: 'bench' });
  await closeMigrated();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const db = drizzle(client);
  const close = () => client.end();
  try {
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
      with leaf as (select id, row_number() over (order by slug) - 1 as n from categories where parent_id is not null),
           brand as (select id, row_number() over (order by slug) - 1 as n from brands)
      insert into parts (name, description, img, price_cents, available_quantity, minimum_order, created_by_email,
                         created_at, brand_id, category_id, mpn, part_numbers, universal)
      select 'Bench part ' || i, 'A bench part for sport and touring bikes.', '/images/parts/brake-pads.svg',
             100 + (i * 7919) % 99900, (i * 31) % 200, 1 + i % 5, 'bench@redline.dev',
             now() - (${parts} - i) * interval '1 second',
             (select id from brand where n = i % ${BRANDS}),
             (select id from leaf where n = i % (select count(*) from leaf)),
             'BP-' || i, array['bp' || i], i % 100 = 0
      from generate_series(1, ${parts}) i`);
    // Ten rows per part: a model chosen by a multiplicative hash (even over all models), 1–7 model years from a
    // hashed start year, every variant.
    await db.execute(sql`
      with model as (select id, row_number() over (order by id) - 1 as n from vehicle_models),
           part as (select id, row_number() over (order by created_at, id) as i from parts),
           rows as (
             select part.id as part_id, (part.i * 10 + r) as h from part cross join generate_series(0, ${FITMENT_ROWS_PER_PART - 1}) r
           ),
           chosen as (
             select part_id, (h * 2654435761) % ${MAKES * MODELS_PER_MAKE} as model_n,
                    2005 + (h * 40503) % 21 as year_from, (h * 97) % 7 as span
             from rows
           )
      insert into part_fitments (part_id, model_id, year_from, year_to)
      select chosen.part_id, model.id, chosen.year_from, least(2025, chosen.year_from + chosen.span)
      from chosen inner join model on model.n = chosen.model_n`);
    // As autovacuum would leave a long-running database: statistics, and a visibility map for index-only scans.
    await db.execute(sql`vacuum analyze`);
    const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows);
    const [vehicle] = rowsOf<{ id: string }>(
      await db.execute(sql`
        select v.id from vehicles v inner join vehicle_models m on m.id = v.model_id
        where v.year = 2019 order by m.name limit 1`),
    );
    const [rows] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from part_fitments`));
    if (!vehicle) throw new Error('no vehicle seeded');
    return { vehicleId: vehicle.id, fitmentRows: Number(rows?.n ?? 0) };
  } finally {
    await close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('Set DATABASE_URL to an empty PostgreSQL database');
  const started = performance.now();
  const { vehicleId, fitmentRows } = await seedFitmentBench(databaseUrl, Number(process.argv[2] ?? 100_000));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${fitmentRows} fitment rows in ${seconds} s; a 2019 vehicle to ask about: ${vehicleId}`);
}
