/**
 * What one photo upload costs the server, measured on the conversion itself (the part of an upload that is not a
 * database write): `convertPhoto` (content check, then WebP at 320/640/1280) on photos made here with sharp, noisy so
 * they compress like a camera's, not like a flat colour. No server is started: the request around it is an ordinary
 * admin write. Also prints sharp's installed size.
 *
 *   node bench/photo-conversion.ts            # RUNS=10 by default
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import sharp from 'sharp';
import { convertPhoto } from '../src/server/modules/media/photo-conversion.ts';

const RUNS = Number(process.env.RUNS ?? 10);

async function photo(width: number, height: number, format: 'jpeg' | 'png' | 'webp' | 'avif'): Promise<Buffer> {
  const base = sharp({
    create: { width, height, channels: 3, background: '#6b7d8f', noise: { type: 'gaussian', mean: 120, sigma: 40 } },
  }).blur(1.2);
  return base.toFormat(format, format === 'jpeg' ? { quality: 85 } : {}).toBuffer();
}

const cases = [
  { label: '12 MP phone JPEG (4000 x 3000)', make: () => photo(4000, 3000, 'jpeg') },
  { label: '2 MP PNG (1600 x 1200)', make: () => photo(1600, 1200, 'png') },
  { label: '1 MP WebP (1200 x 800)', make: () => photo(1200, 800, 'webp') },
  { label: '1 MP AVIF (1200 x 800)', make: () => photo(1200, 800, 'avif') },
];

const [load1, load5] = os.loadavg();
console.log(
  `${os.cpus().length} CPUs (${os.cpus()[0]?.model}), load ${load1?.toFixed(2)} ${load5?.toFixed(2)}, Node ${process.version}, sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}`,
);
for (const c of cases) {
  const input = await c.make();
  await convertPhoto(input); // warm-up
  const times: number[] = [];
  let output = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    const converted = await convertPhoto(input);
    times.push(performance.now() - started);
    output = converted.files.reduce((sum, f) => sum + f.data.length, 0);
  }
  times.sort((a, b) => a - b);
  const p50 = times[Math.floor(times.length / 2)] ?? 0;
  const max = times.at(-1) ?? 0;
  console.log(
    `${c.label.padEnd(32)} in ${(input.length / 1024).toFixed(0).padStart(6)} KiB  ->  WebP ${(output / 1024).toFixed(0).padStart(4)} KiB   p50 ${p50.toFixed(0).padStart(4)} ms  max ${max.toFixed(0).padStart(4)} ms`,
  );
}
const du = execFileSync('du', ['-sck', 'node_modules/sharp', ...['node_modules/@img'].filter(Boolean)], {
  encoding: 'utf8',
});
const totalKiB = Number(du.trim().split('\n').at(-1)?.split('\t')[0] ?? 0);
console.log(`sharp installed (node_modules/sharp + node_modules/@img): ${(totalKiB / 1024).toFixed(1)} MB`);
