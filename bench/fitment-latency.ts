import os from 'node:os';
import autocannon from 'autocannon';
import { seedFitmentBench } from './fitment-seed.ts';
import { createPostgresDatabase, dropPostgresDatabase } from './support/database.ts';
import { formatFigures, type LoadFigures, measure, warmUp } from './support/load.ts';
import { benchPort, startProductionServer } from './support/server.ts';

/**
 * "Parts that fit vehicle V, page 1, with facet counts" on PostgreSQL (issue 13), at two catalogue sizes:
 * 1,000 parts with 10,000 fitment rows and 100,000 parts with 1,000,000 fitment rows, on the same 6,300 vehicles
 * (30 makes × 10 models × 21 model years). Each part has ten fitment rows (a model and a range of 1–7 years, spread
 * evenly over the models), one part in a hundred is universal. The vehicle asked about is a 2019 model year.
 *
 *   node bench/fitment-latency.ts
 *   BENCH_POSTGRES=postgres://postgres@127.0.0.1:5432/postgres BENCH_DURATION=10 node bench/fitment-latency.ts
 *
 * Budget (issue 13): p99 ≤ 50 ms at 10 connections, and p99 at 100,000 parts ≤ 2× p99 at 1,000 parts, for both
 * calls the parts page makes: the page (`GET /api/part?vehicle=V&fits=true&limit=24`) and its counts
 * (`GET /api/part/facets?vehicle=V&fits=true`). The throw-away databases are created on BENCH_POSTGRES and dropped.
 */
const server = process.env.BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SIZES = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number);

interface SizeResult {
  parts: number;
  fitmentRows: number;
  fitting: number;
  figures: LoadFigures[];
}

/** The page and its counts one after the other on each connection, as the parts page asks for them. */
async function measureBoth(title: string, base: string, paths: string[]): Promise<LoadFigures> {
  const result = await autocannon({
    url: base,
    connections,
    duration,
    requests: paths.map((path) => ({ method: 'GET', path })),
    title,
  });
  return {
    title,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    averageMs: result.latency.average,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function runSize(parts: number): Promise<SizeResult> {
  const name = `redline_bench_fitment_${parts}_${process.pid}`;
  const databaseUrl = await createPostgresDatabase(server, name);
  try {
    const started = performance.now();
    const { vehicleId, fitmentRows } = await seedFitmentBench(databaseUrl, parts);
    console.log(
      `${parts} parts, ${fitmentRows} fitment rows seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const app = await startProductionServer({
      port: await benchPort(),
      databaseUrl,
      env: { SEED_DEMO_DATA: 'false' },
    });
    try {
      const base = app.baseUrl;
      const page = `/api/part?vehicle=${vehicleId}&fits=true&limit=24`;
      const facets = `/api/part/facets?vehicle=${vehicleId}&fits=true`;
      const first = await fetch(`${base}${page}`);
      const fitting = Number(first.headers.get('x-total-count'));
      const counts = (await (await fetch(`${base}${facets}`)).json()) as { total: number };
      if (counts.total !== fitting) throw new Error(`facets total ${counts.total} ≠ X-Total-Count ${fitting}`);
      console.log(`  vehicle ${vehicleId}: ${fitting} fitting parts (universal included)`);
      const figures: LoadFigures[] = [];
      for (const [title, path] of [
        ['page 1 (fits=true, limit 24)', page],
        ['facet counts (fits=true)', facets],
      ] as const) {
        await warmUp(`${base}${path}`);
        figures.push(await measure({ title, url: `${base}${path}`, connections, durationSeconds: duration }));
      }
      figures.push(await measureBoth('page 1 + facets, alternating', base, [page, facets]));
      return { parts, fitmentRows, fitting, figures };
    } finally {
      await app.stop();
    }
  } finally {
    await dropPostgresDatabase(server, name);
  }
}

const results: SizeResult[] = [];
for (const size of SIZES) results.push(await runSize(size));

console.log(
  `\nMachine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, Node ${process.version}; ${connections} connections, ${duration} s per case, PostgreSQL\n`,
);
for (const result of results) {
  console.log(
    `${result.parts} parts, ${result.fitmentRows} fitment rows, ${result.fitting} parts fit the vehicle:\n${formatFigures(result.figures)}\n`,
  );
}
const small = results[0];
const large = results.at(-1);
let failed = results.some((r) => r.figures.some((f) => f.non2xx > 0 || f.errors > 0));
if (small && large && small !== large) {
  for (const [i, figure] of large.figures.entries()) {
    const before = small.figures[i];
    if (!before) continue;
    const ratio = figure.p99Ms / Math.max(before.p99Ms, 1);
    const withinBudget = figure.p99Ms <= 50 && ratio <= 2;
    if (!withinBudget) failed = true;
    console.log(
      `${figure.title}: p99 ${before.p99Ms} ms → ${figure.p99Ms} ms (×${ratio.toFixed(2)}) ${withinBudget ? 'within' : 'OVER'} budget (≤ 50 ms, ≤ ×2)`,
    );
  }
}
if (failed) process.exitCode = 1;
