/**
 * CSV export (ADR 014): export of 100,000 products (a third with fitment) as CSV from the production server on
 * PostgreSQL, measuring the time and how much the server's resident memory grows meanwhile (goal: under 100 MB: the
 * export is read in keyset pages and streamed, so it never holds the catalogue). The parts are loaded with the CSV
 * import first (bench/support/product-csv.ts); the server's RSS is read from /proc every 50 ms.
 *
 *   node bench/catalog-export.ts                                   # BENCH_POSTGRES or postgres://…/postgres
 */
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createPostgresDatabase, dropPostgresDatabase } from './support/database.ts';
import { BENCH_SHOP_ENV, logInBenchAdmin } from './support/http.ts';
import { makeFile, runImport } from './support/product-csv.ts';
import { benchPort, NO_LOAD_SHEDDING, startProductionServer } from './support/server.ts';

const ROWS = Number(process.env.ROWS ?? 100_000);
const serverUrl = process.env.BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The process's resident set in MB (Linux). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.match(/(\d+)/)?.[1] ?? 0) / 1024;
}

const [load1, load5] = os.loadavg();
console.log(
  `${os.cpus().length} CPUs (${os.cpus()[0]?.model}), load ${load1?.toFixed(2)} ${load5?.toFixed(2)}, Node ${process.version}`,
);
const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'redline-bench-export-'));
const file = path.join(scratch, 'products.csv');
await makeFile(file, ROWS);
const dbName = `redline_bench_export_${process.pid}`;
const databaseUrl = await createPostgresDatabase(serverUrl, dbName);
const server = await startProductionServer({
  port: await benchPort(),
  databaseUrl,
  env: { ...BENCH_SHOP_ENV, ...NO_LOAD_SHEDDING },
});
try {
  const token = await logInBenchAdmin(server.baseUrl);
  console.log(`Loading ${ROWS} products with the import:`);
  await runImport(server.baseUrl, token, file);
  for (const round of [1, 2]) {
    // Settle first: the import that loaded the parts is not the export.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const before = rssMb(server.pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(server.pid));
    }, 50);
    const started = performance.now();
    const res = await fetch(`${server.baseUrl}/api/admin/export/products.csv`, {
      headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' },
    });
    if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    console.log(
      `PostgreSQL export ${round}: ${lines - 1} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB in ${seconds.toFixed(1)} s; ` +
        `server RSS ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB (growth ${(peak - before).toFixed(0)} MB)`,
    );
  }
} finally {
  await server.stop();
  await dropPostgresDatabase(serverUrl, dbName);
  await fs.rm(scratch, { recursive: true, force: true });
}
