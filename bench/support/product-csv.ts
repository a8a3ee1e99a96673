/** The product CSV the import and export benchmarks use, and an import through the API, waited for. */

import { once } from 'node:events';
import { createWriteStream, openAsBlob } from 'node:fs';
import fs from 'node:fs/promises';

const BRANDS = ['Brembo', 'EBC', 'DID', 'NGK', 'K&N', 'Pirelli', 'Akrapovic', 'Oxford'];
const CATEGORIES = ['brake-pads', 'brake-discs', 'chains', 'sprockets', 'filters', 'ignition', 'exhaust', 'levers'];
const FITMENT = ['Honda|CBR600RR|2007-2012', 'Yamaha|YZF-R1|2015-2020|', 'Kawasaki|Z900|2017-2025'];

/** The file, written as a stream (it is larger than a benchmark should hold as one string). */
export async function makeFile(file: string, ROWS: number): Promise<number> {
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

export interface ImportState {
  id: string;
  status: string;
  rowsDone: number;
  totalRows: number;
  created: number;
  updated: number;
  errorCount: number;
  errors: { line: number; column: string | null; message: string }[];
}

export async function runImport(
  base: string,
  token: string,
  file: string,
): Promise<{ seconds: number; state: ImportState }> {
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
