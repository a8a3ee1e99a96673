import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from '../src/server/db/schema.ts';
import { PartRepository } from '../src/server/modules/catalog/part-repository.ts';
import { KnownVehicles } from '../src/server/modules/fitment/known-vehicles.ts';
import { PartFitmentRepository } from '../src/server/modules/fitment/part-fitment-repository.ts';
import { PartFitments } from '../src/server/modules/fitment/part-fitments.ts';

const pool = new pg.Pool({ connectionString: process.env.URL });
const queries: { sql: string; params: unknown[] }[] = [];
const db = drizzle(pool, { schema, logger: { logQuery: (sql, params) => queries.push({ sql, params }) } }) as never;
const repo = new PartRepository(db, new PartFitments(new PartFitmentRepository(db), new KnownVehicles()));
const qs = (process.env.QS ?? 'brake pads').split('|');
const mode = process.env.MODE ?? 'list';
for (const q of qs) {
  queries.length = 0;
  const t = performance.now();
  if (mode === 'list') await repo.list({ q }, { limit: 24 });
  else if (mode === 'vehicle') await repo.listWithFacets({ fitsVehicle: q }, { limit: 24 }, q);
  else await repo.listWithFacets({ q }, { limit: 24 }, undefined);
  const t2 = performance.now();
  const again = queries.slice();
  queries.length = 0;
  const t3 = performance.now();
  if (mode === 'list') await repo.list({ q }, { limit: 24 });
  else if (mode === 'vehicle') await repo.listWithFacets({ fitsVehicle: q }, { limit: 24 }, q);
  else await repo.listWithFacets({ q }, { limit: 24 }, undefined);
  console.log(
    `== ${q}: ${(t2 - t).toFixed(1)} ms, again ${(performance.now() - t3).toFixed(1)} ms, ${again.length} statements`,
  );
  if (process.env.EXPLAIN) {
    for (const { sql, params } of queries) {
      const c = await pool.connect();
      try {
        const r = await c.query(`explain (analyze, buffers) ${sql}`, params as unknown[]);
        console.log(sql.slice(0, 300));
        console.log(r.rows.map((row) => row['QUERY PLAN']).join('\n'));
      } finally {
        c.release();
      }
    }
  }
}
await pool.end();
