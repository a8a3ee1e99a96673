import { fileURLToPath } from 'node:url';
import { count, sql } from 'drizzle-orm';
import { parts } from '../src/server/db/schema.ts';
import { type BenchTarget, benchTargetFromEnv, openBenchDatabase } from './support/database.ts';

/**
 * Seeds a large catalogue for benchmarks: `node bench/seed-catalog.ts [count]` (default 10,000) into DATABASE_URL,
 * or into BENCH_DATA_DIR / a fresh temporary PGlite directory (printed). Idempotent up to `count`: an existing
 * catalogue is topped up, never duplicated past it.
 */
const nouns = [
  'Brake Disc',
  'Brake Pads',
  'Sport Seat',
  'Riding Boots',
  'Drive Chain',
  'Helmet',
  'Gloves',
  'Clutch Lever',
  'Mirror',
  'Oil Filter',
  'Spark Plug',
  'Tyre',
  'Silencer',
  'Headlight',
  'Protector',
  'Gauge',
] as const;
const images = [
  'brake-disc',
  'brake-pads',
  'sport-seat',
  'riding-boots',
  'drive-chain',
  'full-face-helmet',
  'riding-gloves',
  'clutch-lever',
  'bar-end-mirror',
  'oil-filter',
  'spark-plug',
  'off-road-tyre',
  'exhaust-silencer',
  'led-headlight',
  'chest-protector',
  'pressure-gauge',
] as const;

export async function seedCatalog(target: BenchTarget, wanted = 10_000): Promise<{ existing: number; added: number }> {
  const { handle, close } = await openBenchDatabase(target);
  try {
    const [row] = await handle.db.select({ n: count() }).from(parts);
    const existing = row?.n ?? 0;
    const now = Date.now();
    let added = 0;
    for (let start = existing; start < wanted; start += 1000) {
      const batch = [];
      for (let i = start; i < Math.min(start + 1000, wanted); i++) {
        const kind = i % nouns.length;
        batch.push({
          name: `${nouns[kind]} ${i + 1}`.slice(0, 20),
          description: `Bench part ${i + 1}: a ${nouns[kind]?.toLowerCase()} for sport and touring bikes, tested and boxed.`,
          img: `/images/parts/${images[kind]}.svg`,
          // Deterministic spread of prices between $1.00 and $999.99.
          priceCents: 100 + ((i * 7919) % 99_900),
          availableQuantity: (i * 31) % 2000,
          minimumOrder: 1 + (i % 10),
          createdByEmail: 'bench@redline.dev',
          createdAt: new Date(now - (wanted - i) * 1000),
        });
      }
      await handle.db.insert(parts).values(batch);
      added += batch.length;
    }
    // Fresh statistics, as autovacuum would give a long-running database.
    await handle.db.execute(sql`ANALYZE parts`);
    return { existing, added };
  } finally {
    await close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const wanted = Number(process.argv[2] ?? 10_000);
  const target = benchTargetFromEnv();
  const started = performance.now();
  const { existing, added } = await seedCatalog(target, wanted);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${target.describe}: ${existing} parts were there, added ${added} in ${seconds} s.`);
  if (target.dataDir)
    console.log(`Run the benchmark on it with: BENCH_DATA_DIR=${target.dataDir} node bench/catalog-latency.ts`);
}
