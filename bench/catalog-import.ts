/**
 * CSV import (ADR 014): a 100,000-row product CSV imported through the production server on PostgreSQL (goal: at most
 * 60 s on 2 cores). Makes the file (brands, categories, OEM numbers, and fitment rows naming the demo shop's models on
 * every third part), uploads it as the Import Products page does (`POST /api/admin/catalog/import`, text/csv) and
 * polls the import until it ends. Then the same file again: every row is an update of a part that exists.
 *
 *   node bench/catalog-import.ts                                   # BENCH_POSTGRES or postgres://…/postgres
 *   ROWS=20000 BENCH_PGLITE=1 node bench/catalog-import.ts          # the embedded database instead
 */

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createPostgresDatabase, dropPostgresDatabase } from './support/database.ts';
import { BENCH_SHOP_ENV, logInBenchAdmin } from './support/http.ts';
import { makeFile, runImport } from './support/product-csv.ts';
import { benchPort, NO_LOAD_SHEDDING, startProductionServer } from './support/server.ts';

const ROWS = Number(process.env.ROWS ?? 100_000);
const serverUrl = process.env.BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const pglite = process.env.BENCH_PGLITE === '1';

const [load1, load5] = os.loadavg();
console.log(
  `${os.cpus().length} CPUs (${os.cpus()[0]?.model}), load ${load1?.toFixed(2)} ${load5?.toFixed(2)}, Node ${process.version}`,
);
const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'redline-bench-import-'));
const file = path.join(scratch, 'products.csv');
const bytes = await makeFile(file, ROWS);
console.log(`${ROWS} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB`);
const dbName = `redline_bench_import_${process.pid}`;
const databaseUrl = pglite ? undefined : await createPostgresDatabase(serverUrl, dbName);
const server = await startProductionServer({
  port: await benchPort(),
  databaseUrl,
  dataDir: pglite ? path.join(scratch, 'data') : undefined,
  env: { ...BENCH_SHOP_ENV, ...NO_LOAD_SHEDDING },
});
try {
  const token = await logInBenchAdmin(server.baseUrl);
  for (const label of ['first import (all new)', 'second import (all updates)']) {
    console.log(`${pglite ? 'PGlite' : 'PostgreSQL'} ${label}:`);
    const { seconds, state } = await runImport(server.baseUrl, token, file);
    console.log(
      `  ${state.status}: ${state.rowsDone} rows, ${state.created} added, ${state.updated} updated, ${state.errorCount} errors` +
        `${state.errors[0] ? ` (first: line ${state.errors[0].line} ${state.errors[0].column}: ${state.errors[0].message})` : ''}` +
        ` — ${Math.round(ROWS / seconds)} rows/s`,
    );
  }
} finally {
  await server.stop();
  if (databaseUrl) await dropPostgresDatabase(serverUrl, dbName);
  await fs.rm(scratch, { recursive: true, force: true });
}
