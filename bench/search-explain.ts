import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from '../src/server/db/schema.ts';
import { PartRepository } from '../src/server/modules/catalog/part-repository.ts';
import { KnownVehicles } from '../src/server/modules/fitment/known-vehicles.ts';
import { PartFitmentRepository } from '../src/server/modules/fitment/part-fitment-repository.ts';
import { PartFitments } from '../src/server/modules/fitment/part-fitments.ts';

/**
 * The catalogue's hot statements on an existing PostgreSQL database, one caller, no HTTP: each search (or vehicle)
 * is asked twice through the repository (the second time is printed: the word facts are remembered by then), and
 * with EXPLAIN=1 each statement of the second time is run again under `EXPLAIN (ANALYZE, BUFFERS)` (ADR 025).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/redline_bench_search_100000 node bench/search-explain.ts
 *   MODE=list|page|vehicle (page: the list with its facets; vehicle: SEARCHES are vehicle ids, their page with facets)
 *   SEARCHES='brake pads|yamah' EXPLAIN=1
 *
 * The databases of bench/search-latency.ts and bench/fitment-latency.ts kept with BENCH_KEEP=1 fit it.
 */
const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL: the database to read');
const pool = new pg.Pool({ connectionString: url, max: 2 });
const logged: { sql: string; params: unknown[] }[] = [];
const db = drizzle(pool, { schema, logger: { logQuery: (text, params) => void logged.push({ sql: text, params }) } });
const repository = new PartRepository(
  db as never,
  new PartFitments(new PartFitmentRepository(db as never), new KnownVehicles()),
);
const mode = process.env.MODE ?? 'list';
const asks = (process.env.SEARCHES ?? 'brake pads|sintered brake|yamah|honda chain|kawasaki ka450 pads|bp-777').split(
  '|',
);

async function ask(q: string): Promise<void> {
  if (mode === 'vehicle') await repository.listWithFacets({ fitsVehicle: q }, { limit: 24 }, q);
  else if (mode === 'page') await repository.listWithFacets({ q }, { limit: 24 }, undefined);
  else await repository.list({ q }, { limit: 24 });
}

try {
  for (const q of asks) {
    await ask(q);
    logged.length = 0;
    const started = performance.now();
    await ask(q);
    console.log(`== ${mode} "${q}": ${(performance.now() - started).toFixed(1)} ms, ${logged.length} statements`);
    if (process.env.EXPLAIN !== '1') continue;
    for (const { sql, params } of [...logged]) {
      const { rows } = await pool.query(`explain (analyze, buffers) ${sql}`, params);
      console.log(sql.length > 400 ? `${sql.slice(0, 400)} …` : sql);
      console.log(rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n'));
    }
  }
} finally {
  await pool.end();
}
