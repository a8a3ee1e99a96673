import fs from 'node:fs';
import { seedCatalog } from './seed-catalog.ts';
import { benchTargetFromEnv, createPostgresDatabase, dropPostgresDatabase } from './support/database.ts';
import { formatFigures, type LoadFigures, measure, warmUp } from './support/load.ts';
import { benchPort, startProductionServer } from './support/server.ts';

/**
 * Catalogue read latency with 10,000 parts, against the production server (NODE_ENV=production, child process).
 *
 *   node bench/catalog-latency.ts                                   # fresh temporary PGlite directory
 *   BENCH_DATA_DIR=/tmp/x node bench/catalog-latency.ts             # a PGlite directory (seeded if needed)
 *   DATABASE_URL=postgres://…/bench node bench/catalog-latency.ts   # an existing PostgreSQL database
 *   BENCH_POSTGRES=postgres://postgres@127.0.0.1:5432/postgres node bench/catalog-latency.ts
 *                                          # creates a throw-away database on that server and drops it after
 *
 * BENCH_DURATION (seconds per endpoint, default 10), BENCH_CONNECTIONS (default 10), BENCH_PORT (default: a free port).
 */
const PARTS = 10_000;
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const port = await benchPort();

let dropAfter: (() => Promise<void>) | undefined;
if (process.env.BENCH_POSTGRES && !process.env.DATABASE_URL) {
  const server = process.env.BENCH_POSTGRES;
  const name = `redline_bench_${process.pid}`;
  process.env.DATABASE_URL = await createPostgresDatabase(server, name);
  dropAfter = () => dropPostgresDatabase(server, name);
}
const ownsDataDir = !process.env.DATABASE_URL && !process.env.BENCH_DATA_DIR;
const target = benchTargetFromEnv();

try {
  console.log(`Database: ${target.describe}`);
  const seeded = await seedCatalog(target, PARTS);
  console.log(`Catalogue: ${seeded.existing + seeded.added} parts (${seeded.added} added now).`);

  const server = await startProductionServer({
    port,
    databaseUrl: target.databaseUrl,
    dataDir: target.dataDir,
    env: { SEED_DEMO_DATA: 'false' },
  });
  try {
    const base = server.baseUrl;
    const listed = await fetch(`${base}/api/part?sort=name&limit=1&offset=${Math.floor(PARTS / 2)}`);
    const [middle] = (await listed.json()) as { _id: string }[];
    if (!middle) throw new Error('The catalogue is empty: seeding failed?');
    console.log(`X-Total-Count: ${listed.headers.get('x-total-count')}`);

    const endpoints: [string, string][] = [
      ['GET /api/part?limit=24', '/api/part?limit=24'],
      ['GET /api/part?sort=newest&limit=6', '/api/part?sort=newest&limit=6'],
      ['GET /api/part/:id', `/api/part/${middle._id}`],
      ['GET /api/part?sort=price_asc&limit=24&offset=4800', '/api/part?sort=price_asc&limit=24&offset=4800'],
      ['GET /api/part?q=brake&limit=24', '/api/part?q=brake&limit=24'],
    ];
    const results: LoadFigures[] = [];
    for (const [title, path] of endpoints) {
      await warmUp(`${base}${path}`);
      const figures = await measure({ title, url: `${base}${path}`, connections, durationSeconds: duration });
      results.push(figures);
      console.log(
        `  ${title}: ${figures.requestsPerSecond.toFixed(0)} req/s, p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms`,
      );
    }
    console.log(`\n${target.describe}, ${PARTS} parts, ${connections} connections, ${duration} s per endpoint:\n`);
    console.log(formatFigures(results));
    const failures = results.filter((r) => r.non2xx > 0 || r.errors > 0);
    if (failures.length > 0) {
      console.error(`Some requests failed: ${failures.map((f) => f.title).join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    await server.stop();
  }
} finally {
  if (dropAfter) await dropAfter();
  if (ownsDataDir && target.dataDir) fs.rmSync(target.dataDir, { recursive: true, force: true });
}
