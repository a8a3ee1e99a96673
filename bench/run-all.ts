import { execFileSync, execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import { orders, parts, reviews, users } from '../src/server/db/schema.ts';
import { seedCatalog } from './seed-catalog.ts';
import {
  type BenchTarget,
  createPostgresDatabase,
  dropPostgresDatabase,
  openBenchDatabase,
} from './support/database.ts';
import { signUpCustomer } from './support/http.ts';
import { type LoadFigures, measure, warmUp } from './support/load.ts';
import { type BenchServer, benchPort, startProductionServer } from './support/server.ts';

/**
 * `npm run bench`: the whole API benchmark, once on PGlite and once on PostgreSQL.
 *
 *   npx vite build --outDir /tmp/build-x --emptyOutDir     # for the static-asset case (else it is skipped)
 *   STATIC_DIR=/tmp/build-x node bench/run-all.ts
 *
 * Per database: seeds 10,000 parts (bench/seed-catalog.ts), starts the production server, signs up a few customers
 * through POST /api/signup, stops it, writes 10,000 orders of those customers and 50 reviews straight in SQL
 * (seeding through HTTP would measure the seeding), starts the server again on that data and measures with
 * autocannon, one line per case:
 *
 *   GET /api/part?limit=24         first catalogue page (what /allparts asks for)
 *   GET /api/part/:id              one part (the purchase page)
 *   GET /api/review                reviews (the home page)
 *   GET /api/part?q=brake&limit=24 the catalogue search (one part in eight matches "brake")
 *   POST /api/myorder              signed-in customers placing real orders, one customer and part per connection
 *   GET /assets/<main chunk>.js    the largest hashed JavaScript file of STATIC_DIR, asked for as a browser does
 *                                  (accept-encoding: br, gzip)
 *
 * BENCH_DURATION (seconds per case, default 5), BENCH_CONNECTIONS (default 10), BENCH_PORT (default: a free port),
 * BENCH_POSTGRES (server URL, default postgres://postgres@127.0.0.1:5432/postgres; "skip" runs PGlite only; a
 * database redline_bench_all_<pid> is created on it and dropped after), STATIC_DIR (default dist/web).
 * Then, on PostgreSQL, bench/catalog-paging.ts (page 1 vs page 2,500 at 100,000 parts; BENCH_PAGING=skip leaves it out).
 * And bench/catalog-cache.ts (cached list and part reads vs a bare Fastify route; BENCH_CACHE=skip leaves it out),
 * and bench/process-start.ts (cold start and RSS at rest; BENCH_START=skip leaves it out), bench/search-latency.ts
 * (BENCH_SEARCH=skip) and bench/fitment-latency.ts (BENCH_FITMENT=skip): search and a vehicle's page at 1,000 and
 * 100,000 parts.
 */
const PARTS = 10_000;
const ORDERS = 10_000;
const CUSTOMERS = 10;
const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const port = await benchPort();
const postgresServer = process.env.BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const staticDir = path.resolve(process.env.STATIC_DIR ?? 'dist/web');
const serverEnv = {
  SEED_DEMO_DATA: 'false',
  STATIC_DIR: staticDir,
  // Sign-ups of the bench customers come from one address.
  RATE_LIMIT_SIGNUP_PER_IP: '100000',
};

interface Customer {
  email: string;
  token: string;
}

interface CaseRow extends LoadFigures {
  database: string;
}

/** The largest hashed script of the build: the main chunk every page loads. */
function mainChunk(): string | undefined {
  const assets = path.join(staticDir, 'assets');
  if (!fs.existsSync(path.join(staticDir, 'index.html')) || !fs.existsSync(assets)) return undefined;
  const scripts = fs
    .readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ f, size: fs.statSync(path.join(assets, f)).size }))
    .sort((a, b) => b.size - a.size);
  return scripts[0] ? `/assets/${scripts[0].f}` : undefined;
}

async function signUpCustomers(server: BenchServer): Promise<Customer[]> {
  const stamp = Date.now().toString(36);
  const customers: Customer[] = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const email = `bench-customer-${i}-${stamp}@example.com`;
    const token = await signUpCustomer(server, {
      name: `Bench Customer ${i}`,
      email,
      password: 'bench-customer-password',
    });
    customers.push({ email, token });
  }
  return customers;
}

/**
 * Order history in SQL: ORDERS orders spread over the customers and the catalogue, half of them paid, dated over
 * the last year. Returns, per customer, a part of its own to order during the measurement (minimum order 1, stock
 * enough for any run), so buyers do not queue on one row.
 */
async function seedOrdersAndReviews(target: BenchTarget, customers: Customer[]): Promise<string[]> {
  const { handle, close } = await openBenchDatabase(target);
  try {
    const db = handle.db;
    const people = await db
      .select({ id: users.id, email: users.email, name: users.displayName })
      .from(users)
      .where(
        inArray(
          users.email,
          customers.map((c) => c.email),
        ),
      );
    if (people.length !== customers.length) throw new Error('The bench customers are not all in the database');
    const catalogue = await db
      .select({ id: parts.id, name: parts.name, priceCents: parts.priceCents })
      .from(parts)
      .orderBy(parts.createdAt)
      .limit(2000);
    const now = Date.now();
    for (let start = 0; start < ORDERS; start += 1000) {
      const batch = [];
      for (let i = start; i < Math.min(start + 1000, ORDERS); i++) {
        const person = people[i % people.length];
        const part = catalogue[(i * 7) % catalogue.length];
        if (!person || !part) continue;
        const quantity = 1 + (i % 5);
        const paid = i % 2 === 0;
        batch.push({
          partId: part.id,
          userId: person.id,
          partName: part.name,
          unitPriceCents: part.priceCents,
          quantity,
          totalCents: part.priceCents * quantity,
          email: person.email,
          userName: person.name,
          address: `${i + 1} Bench Road`,
          phone: '555 0100',
          paid,
          status: paid ? ('paid' as const) : ('unpaid' as const),
          transactionId: paid ? `bench_txn_${i}` : null,
          paidAt: paid ? new Date(now - (ORDERS - i) * 3000 + 60_000) : null,
          createdAt: new Date(now - (ORDERS - i) * 3000),
        });
      }
      await db.insert(orders).values(batch);
    }
    await db.insert(reviews).values(
      Array.from({ length: 50 }, (_, i) => ({
        userId: people[i % people.length]?.id ?? null,
        name: `Bench Rider ${i + 1}`,
        rating: 1 + (i % 5),
        img: '/images/reviewers/reviewer-1.svg',
        review: `Bench review ${i + 1}: fitted in an afternoon, still going strong after a season of riding.`,
        createdAt: new Date(now - (50 - i) * 60_000),
      })),
    );
    // One part per customer for the order case: minimum order 1, stock for any run length.
    const own = catalogue.slice(0, people.length).map((p) => p.id);
    await db.update(parts).set({ minimumOrder: 1, availableQuantity: 1_000_000 }).where(inArray(parts.id, own));
    await db.execute(sql`ANALYZE`);
    return own;
  } finally {
    await close();
  }
}

async function start(target: BenchTarget): Promise<BenchServer> {
  return startProductionServer({ port, databaseUrl: target.databaseUrl, dataDir: target.dataDir, env: serverEnv });
}

async function benchmark(database: string, target: BenchTarget): Promise<CaseRow[]> {
  const seeded = await seedCatalog(target, PARTS);
  let server = await start(target);
  let customers: Customer[];
  try {
    customers = await signUpCustomers(server);
  } finally {
    // PGlite is one process's directory: the seeding below needs the server gone.
    await server.stop();
  }
  const ownParts = await seedOrdersAndReviews(target, customers);
  console.log(`${database}: ${seeded.existing + seeded.added} parts, ${ORDERS} orders of ${CUSTOMERS} customers`);

  server = await start(target);
  const rows: CaseRow[] = [];
  try {
    const base = server.baseUrl;
    const listed = await fetch(`${base}/api/part?sort=name&limit=1&offset=${PARTS / 2}`);
    const [middle] = (await listed.json()) as { _id: string }[];
    if (!middle) throw new Error('The catalogue is empty: seeding failed?');
    let next = 0;
    const asset = mainChunk();
    const cases: (Parameters<typeof measure>[0] & { warm?: boolean })[] = [
      { title: 'GET /api/part?limit=24', url: `${base}/api/part?limit=24` },
      { title: 'GET /api/part/:id', url: `${base}/api/part/${middle._id}` },
      { title: 'GET /api/review', url: `${base}/api/review` },
      // The catalogue search on the same catalogue; its own budgets are search-latency.ts's, run below.
      { title: 'GET /api/part?q=brake&limit=24', url: `${base}/api/part?q=brake&limit=24` },
      {
        title: 'POST /api/myorder',
        url: `${base}/api/myorder`,
        method: 'POST',
        warm: false,
        setupClient: (client) => {
          const i = next++ % customers.length;
          client.setHeaders({ 'content-type': 'application/json', authorization: `Bearer ${customers[i]?.token}` });
          client.setBody(JSON.stringify({ partId: ownParts[i], quantity: 1, address: '1 Bench Road', phone: '555' }));
        },
      },
    ];
    if (asset) {
      cases.push({
        title: `GET ${asset.replace(/-[\w-]{8}\.js$/, '-*.js')} (br)`,
        url: `${base}${asset}`,
        headers: { 'accept-encoding': 'br, gzip' },
      });
    } else {
      console.log(`  (no build in ${staticDir}: the static-asset case is skipped; set STATIC_DIR)`);
    }
    for (const c of cases) {
      if (c.warm !== false) await warmUp(c.url, c.headers);
      const figures = await measure({ ...c, connections, durationSeconds: duration });
      const row = { database, ...figures };
      rows.push(row);
      console.log(line(row));
    }
  } finally {
    await server.stop();
  }
  return rows;
}

function line(r: CaseRow): string {
  const failed = r.non2xx + r.errors > 0 ? `  FAILED: ${r.non2xx} non-2xx, ${r.errors} errors` : '';
  return (
    `${r.database.padEnd(10)} ${r.title.padEnd(34)} ${r.requestsPerSecond.toFixed(0).padStart(6)} req/s` +
    `  p50 ${String(r.p50Ms).padStart(3)} ms  p99 ${String(r.p99Ms).padStart(4)} ms${failed}`
  );
}

function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  let memory = `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`;
  try {
    memory = execSync('free -h', { encoding: 'utf8' }).split('\n')[1]?.split(/\s+/)[1] ?? memory;
  } catch {
    // free(1) is not everywhere.
  }
  return `${os.cpus().length} CPUs (${cpu}), ${memory} RAM, load ${load}, Node ${process.version}`;
}

const started = Date.now();
console.log(`${new Date().toISOString()}  ${machine()}`);
console.log(`${connections} connections, ${duration} s per case\n`);
const rows: CaseRow[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-bench-all-'));
try {
  rows.push(...(await benchmark('PGlite', { dataDir, describe: `PGlite in ${dataDir}` })));
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
if (postgresServer !== 'skip') {
  const name = `redline_bench_all_${process.pid}`;
  const databaseUrl = await createPostgresDatabase(postgresServer, name);
  try {
    rows.push(...(await benchmark('PostgreSQL', { databaseUrl, describe: `PostgreSQL ${name}` })));
  } finally {
    await dropPostgresDatabase(postgresServer, name);
  }
}
/**
 * The other PostgreSQL benchmarks, each in a process of its own after the API cases; `skipWith=skip` in the
 * environment leaves one out. A failed one fails this run.
 */
function runAlso(script: string, what: string, skipWith: string, env: Record<string, string> = {}): void {
  if (postgresServer === 'skip' || process.env[skipWith] === 'skip') return;
  console.log(`\nbench/${script} (${what}):`);
  try {
    execFileSync(process.execPath, [path.join(import.meta.dirname, script)], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_POSTGRES: postgresServer, ...env },
    });
  } catch {
    process.exitCode = 1;
  }
}
// Page 1 against page 2,500 of a 100,000-part catalogue (its own database).
runAlso('catalog-paging.ts', 'PostgreSQL, 100,000 parts', 'BENCH_PAGING');
// Cached list and part reads against a bare Fastify route with the same bytes.
runAlso('catalog-cache.ts', 'PostgreSQL, 1,000 parts, ours vs a bare Fastify route', 'BENCH_CACHE', {
  BENCH_DURATION: String(Math.max(duration, 10)),
});
// Search and a vehicle's page with its facets at 1,000 and 100,000 parts (ADR 025: p99 ≤ 60 ms at 100,000, search
// ≤ 3× its 1,000-part p99). Each seeds its own 100,000 parts, which is slow; BENCH_KEEP=1 keeps the databases.
runAlso('search-latency.ts', 'PostgreSQL, 1,000 and 100,000 parts', 'BENCH_SEARCH', {
  BENCH_TARGETS: process.env.BENCH_TARGETS ?? 'postgres:1000,postgres:100000',
});
runAlso(
  'fitment-latency.ts',
  "PostgreSQL, a vehicle's page with its facets, 1,000 and 100,000 parts",
  'BENCH_FITMENT',
  {
    BENCH_SHAPES: process.env.BENCH_SHAPES ?? 'fixed',
    BENCH_CASES: process.env.BENCH_CASES ?? 'combined',
  },
);
// Cold start and RSS at rest of the production server (the budget's catalogue: 100,000 parts on PostgreSQL).
runAlso('process-start.ts', 'PostgreSQL, 100,000 parts, then PGlite', 'BENCH_START');
console.log(`\n(${((Date.now() - started) / 1000).toFixed(0)} s, load afterwards ${os.loadavg()[0]?.toFixed(2)})`);
if (rows.some((r) => r.non2xx > 0 || r.errors > 0)) process.exitCode = 1;
