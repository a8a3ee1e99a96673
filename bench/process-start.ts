import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPostgresDatabase, dropPostgresDatabase } from './support/database.ts';
import { childPids, processRssMb } from './support/process-stats.ts';
import { benchPort, startProductionServer } from './support/server.ts';

/**
 * Issue 15 item 6: how long the production server takes to start, and how much memory it holds at rest.
 *
 *   node bench/process-start.ts                 # PostgreSQL (throw-away database on BENCH_POSTGRES) and PGlite
 *   BENCH_STARTS=5 node bench/process-start.ts  # starts per database (default 3; the first one migrates and seeds)
 *   NODE_OPTIONS=--max-semi-space-size=… node bench/process-start.ts   # try V8 heap settings
 *
 * Cold start: from spawning `node src/server/main.ts` to the first 200 of GET /api/health (asked every 10 ms), on a
 * database that is already migrated and seeded (the first start, which migrates and seeds, is printed apart).
 * RSS at rest: the server's resident set (/proc/<pid>/status VmRSS) after it has answered a few catalogue reads
 * and then stood idle for BENCH_REST_SECONDS (default 20: the server gives memory back after 10 s of quiet).
 */
const starts = Math.max(2, Number(process.env.BENCH_STARTS ?? 3));
const restSeconds = Number(process.env.BENCH_REST_SECONDS ?? 20);
const postgresServer = process.env.BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface StartFigures {
  database: string;
  firstStartMs: number;
  coldStartsMs: number[];
  rssAtRestMb: number;
  /** The processes the server started (its watchdog, ADR 022), counted apart: the goal is the server's own RSS. */
  childRssMb: number;
}

async function measureStarts(label: string, target: { databaseUrl?: string; dataDir?: string }): Promise<StartFigures> {
  const times: number[] = [];
  let rssAtRestMb = Number.NaN;
  let childRssMb = Number.NaN;
  for (let i = 0; i < starts; i += 1) {
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
  return { database: label, firstStartMs: first, coldStartsMs: rest, rssAtRestMb, childRssMb };
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
  results.push(await measureStarts('PostgreSQL', { databaseUrl }));
  results.push(await measureStarts('PGlite', { dataDir }));
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
  console.log(
    `${r.database.padEnd(10)} first start (migrate + seed) ${r.firstStartMs.toFixed(0)} ms; cold start median ` +
      `${median(r.coldStartsMs).toFixed(0)} ms (${r.coldStartsMs.map((t) => t.toFixed(0)).join(', ')}; goal ≤ 1000); ` +
      `RSS at rest ${r.rssAtRestMb.toFixed(0)} MB (goal on PostgreSQL ≤ 150; its watchdog process ` +
      `${r.childRssMb.toFixed(1)} MB more)`,
  );
}
