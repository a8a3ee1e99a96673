/**
 * Issue 14 (ADR 014): a 100,000-row product CSV imported through the production server on PostgreSQL (goal: at most
 * 60 s on 2 cores). Makes the file (brands, categories, OEM numbers, and fitment rows naming the demo shop's models on
 * every third part), uploads it as the Import Products page does (`POST /api/admin/catalog/import`, text/csv) and
 * polls the import until it ends. Then the same file again: every row is an update of a part that exists.
 *
 *   node bench/catalog-import.ts                                   # BENCH_POSTGRES or postgres://…/postgres
 *   ROWS=20000 BENCH_PGLITE=1 node bench/catalog-import.ts          # the embedded database instead
 */

import { once } from 'node:events';
import { createWriteStream, openAsBlob } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createPostgresDatabase, dropPostgresDatabase } from './support/database.ts';
import { BENCH_SHOP_ENV, logInBenchAdmin } from './support/http.ts';
import { benchPort, NO_LOAD_SHEDDING, startProductionServer } from './support/server.ts';

const ROWS = Number(process.env.ROWS ?? 100_000);
const serverUrl = process.env.BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const pglite = process.env.BENCH_PGLITE === '1';

const BRANDS = ['Brembo', 'EBC', 'DID', 'NGK', 'K&N', 'Pirelli', 'Akrapovic', 'Oxford'];
const CATEGORIES = ['brake-pads', 'brake-discs', 'chains', 'sprockets', 'filters', 'ignition', 'exhaust', 'levers'];
const FITMENT = ['Honda|CBR600RR|2007-2012', 'Yamaha|YZF-R1|2015-2020|', 'Kawasaki|Z900|2017-2025'];

/** The file, written as a stream (it is larger than a benchmark should hold as one string). */
async function makeFile(file: string): Promise<number> {
  const out = createWriteStream(file);
  out.write('mpn,name,brand,oem_numbers,category,price,stock,minimum_order,description,image_url,universal,fitment\n');
  for (let i = 0; i < ROWS; i += 1) {
    const fitment = i % 3 === 0 ? FITMENT[i % FITMENT.length] : '';
    const line = `BENCH-${i},Bench part ${i},${BRANDS[i % BRANDS.length]},OEM-${i}|X${i},${CATEGORIES[i % CATEGORIES.length]},${(5 + (i % 500) / 10).toFixed(2)},${i % 200},1,"Imported part ${i}, for the benchmark",/images/parts/brake-pads.svg,false,${fitment}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return (await fs.stat(file)).size;
}

interface ImportState {
  id: string;
  status: string;
  rowsDone: number;
  totalRows: number;
  created: number;
  updated: number;
  errorCount: number;
  errors: { line: number; column: string | null; message: string }[];
}

async function runImport(base: string, token: string, file: string): Promise<{ seconds: number; state: ImportState }> {
  const started = performance.now();
  const res = await fetch(`${base}/api/admin/catalog/import?fileName=bench.csv`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    body: await openAsBlob(file),
  });
  if (res.status !== 202) throw new Error(`upload: ${res.status} ${await res.text()}`);
  let state = (await res.json()) as ImportState;
  const uploaded = (performance.now() - started) / 1000;
  while (state.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const poll = await fetch(`${base}/api/admin/catalog/import/${state.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    state = (await poll.json()) as ImportState;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`  upload and checks ${uploaded.toFixed(1)} s; whole import ${seconds.toFixed(1)} s`);
  return { seconds, state };
}

const [load1, load5] = os.loadavg();
console.log(
  `${os.cpus().length} CPUs (${os.cpus()[0]?.model}), load ${load1?.toFixed(2)} ${load5?.toFixed(2)}, Node ${process.version}`,
);
const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'redline-bench-import-'));
const file = path.join(scratch, 'products.csv');
const bytes = await makeFile(file);
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
