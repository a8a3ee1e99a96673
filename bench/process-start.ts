import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedCatalog } from './seed-catalog.ts';
import { createPostgresDatabase, dropPostgresDatabase } from './support/database.ts';
import { childPids, processRssMb } from './support/process-stats.ts';
import { benchPort, startProductionServer } from './support/server.ts';

/**
 * How long the production server takes to start, and how much memory it holds at rest with a large catalogue.
 *
 *   node bench/process-start.ts                 # PostgreSQL (throw-away database on BENCH_POSTGRES), then PGlite
 *   BENCH_STARTS=5 node bench/process-start.ts  # starts per database (default 3; the first one migrates and seeds)
 *   BENCH_PARTS=20000 BENCH_PGLITE=skip node bench/process-start.ts   # a smaller catalogue, PostgreSQL only
 *   NODE_OPTIONS=--max-semi-space-size=… node bench/process-start.ts   # try V8 heap settings
 *
 * Cold start: from spawning the server to the first 200 of GET /api/health (asked every 10 ms), on a database that
 * is already migrated and seeded (the first start, which migrates and seeds the demo data, is printed apart). On
 * PostgreSQL the catalogue is then topped up to BENCH_PARTS parts (default 100,000: the budget's size) before the
 * other starts; PGlite keeps the demo catalogue.
 * RSS at rest: the server's resident set (/proc/<pid>/status VmRSS) after it has answered a few catalogue reads
 * and then stood idle for BENCH_REST_SECONDS (default 20: the server gives memory back after 10 s of quiet).
 * Budgets (printed, not asserted): cold start ≤ 1 s; RSS at rest on PostgreSQL with 100,000 parts ≤ 200 MB.
 */
const starts = Math.max(2, Number(process.env.BENCH_STARTS ?? 3));
const partsOnPostgres = Number(process.env.BENCH_PARTS ?? 100_000);
const RSS_BUDGET_MB = 200;
const COLD_START_BUDGET_MS = 1000;
const restSeconds = Number(process.env.BENCH_REST_SECONDS ?? 20);
const postgresServer = process.env.BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface StartFigures {
  database: string;
  parts: number;
  firstStartMs: number;
  coldStartsMs: number[];
  rssAtRestMb: number;
  /** The processes the server started (its watchdog, ADR 022), counted apart: the goal is the server's own RSS. */
  childRssMb: number;
}

async function measureStarts(
  label: string,
  target: { databaseUrl?: string; dataDir?: string },
  /** Between the first start and the others: what the catalogue then holds (NaN: the demo catalogue). */
  afterFirstStart: () => Promise<number>,
): Promise<StartFigures> {
  const times: number[] = [];
  let rssAtRestMb = Number.NaN;
  let childRssMb = Number.NaN;
  let parts = Number.NaN;
  for (let i = 0; i < starts; i += 1) {
    if (i === 1) parts = await afterFirstStart();
    const port = await benchPort();
    const began = performance.now();
    const server = await startProductionServer({ port, ...target, pollMs: 10 });
    times.push(performance.now() - began);
    try {
      if (i === starts - 1) {
        // A few reads first, so "at rest" is a server that has served, not one that never ran its routes.
        for (const route of ['/api/part', '/api/part?limit=20', '/api/part/page?limit=24', '/']) {
          await (await fetch(`${server.baseUrl}${route}`)).arrayBuffer();
        }
        await new Promise((resolve) => setTimeout(resolve, restSeconds * 1000));
        rssAtRestMb = processRssMb(server.pid);
        childRssMb = childPids(server.pid).reduce((sum, pid) => sum + processRssMb(pid), 0);
      }
    } finally {
      await server.stop();
    }
  }
  const [first = Number.NaN, ...rest] = times;
  return { database: label, parts, firstStartMs: first, coldStartsMs: rest, rssAtRestMb, childRssMb };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const results: StartFigures[] = [];
const name = `redline_bench_start_${process.pid}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-bench-start-'));
try {
  const databaseUrl = await createPostgresDatabase(postgresServer, name);
  results.push(
    await measureStarts('PostgreSQL', { databaseUrl }, async () => {
      const began = performance.now();
      const { existing, added } = await seedCatalog({ databaseUrl, describe: `PostgreSQL ${name}` }, partsOnPostgres);
      console.log(`  seeded ${added} parts in ${((performance.now() - began) / 1000).toFixed(0)} s`);
      return existing + added;
    }),
  );
  if (process.env.BENCH_PGLITE !== 'skip') {
    results.push(await measureStarts('PGlite', { dataDir }, async () => Number.NaN));
  }
} finally {
  await dropPostgresDatabase(postgresServer, name).catch(() => undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

console.log(`\nProcess start (Node ${process.version}, NODE_OPTIONS=${process.env.NODE_OPTIONS ?? ''})`);
console.log(
  `load average: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${os.cpus().length} CPUs`,
);
for (const r of results) {
  const coldStart = median(r.coldStartsMs);
  const rssVerdict =
    r.database === 'PostgreSQL' && r.parts >= 100_000
      ? `budget ≤ ${RSS_BUDGET_MB}: ${r.rssAtRestMb <= RSS_BUDGET_MB ? 'met' : 'MISSED'}`
      : `the budget is for PostgreSQL with 100,000 parts`;
  console.log(
    `${r.database.padEnd(10)} ${Number.isNaN(r.parts) ? 'demo catalogue' : `${r.parts} parts`}; first start (migrate + seed) ${r.firstStartMs.toFixed(0)} ms; cold ` +
      `start median ${coldStart.toFixed(0)} ms (${r.coldStartsMs.map((t) => t.toFixed(0)).join(', ')}; budget ≤ ` +
      `${COLD_START_BUDGET_MS}: ${coldStart <= COLD_START_BUDGET_MS ? 'met' : 'MISSED'}); RSS at rest ` +
      `${r.rssAtRestMb.toFixed(0)} MB (${rssVerdict}; its watchdog process ${r.childRssMb.toFixed(1)} MB more)`,
  );
}
