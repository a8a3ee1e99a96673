import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createPostgresDatabase, dropPostgresDatabase } from './support/database.ts';
import { addBenchPart, BENCH_SHOP_ENV, logInBenchAdmin, signUpCustomer } from './support/http.ts';
import { processCpuMillis } from './support/process-stats.ts';
import { benchPort, NO_LOAD_SHEDDING, startProductionServer } from './support/server.ts';

/**
 * Checkout of a 3-line cart under concurrent load, against the production server (child process,
 * NODE_ENV=production) on PostgreSQL. Every measured request is a signed-in customer's `POST /api/checkout`: ONE
 * transaction that takes the cart's lines, reserves the stock of three parts and writes three orders (one
 * statement) and saves the address. No mail is written: the please-pay mail is the payment-reminder job's, for orders
 * still unpaid after PAYMENT_REMINDER_DELAY_SECONDS, longer than a run.
 *
 *   node bench/checkout-throughput.ts
 *
 * Each connection is one customer in a loop: its cart is refilled straight in SQL (one statement, not measured; the
 * cart routes are not what is measured), then the checkout is sent and timed. Two scenarios: every customer buys
 * the same three hot parts (checkouts queue on those rows), and every customer has three parts of its own; then
 * one customer alone for BENCH_SINGLE_DURATION seconds (default 5), whose p50 is a checkout's latency without
 * queueing. After each, it checks that stock + ordered units = starting stock, that every checkout wrote three
 * orders, and that none failed.
 *
 * Prints checkouts/s over the wall time of the run (refills included, so it is a floor) and the latency of the
 * checkout calls alone (p50, p99). Goal: >= 300 checkouts/s, p99 <= 100 ms on 2 cores.
 *
 * Also prints the server process's CPU time per checkout (from /proc, mail delivery included): the figure to compare
 * between runs on a shared machine, where checkouts/s follow everyone else's load.
 *
 * BENCH_DURATION (seconds per scenario, default 10), BENCH_CONNECTIONS (default 20), BENCH_PORT (default: a free
 * port), BENCH_POSTGRES (server URL, default postgres://postgres@127.0.0.1:5432/postgres), BENCH_IDEMPOTENCY_KEYS=1
 * (every checkout carries a fresh Idempotency-Key, as the web sends one), BENCH_CPU_PROF=<dir> (the server writes a
 * V8 .cpuprofile there when it stops; `node bench/cpu-profile-summary.ts <file>` summarises it).
 */
const duration = Number(process.env.BENCH_DURATION ?? 10);
const singleDuration = Number(process.env.BENCH_SINGLE_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
/** As the web sends it: a fresh Idempotency-Key with every checkout (its claim and answer are then measured too). */
const withKeys = process.env.BENCH_IDEMPOTENCY_KEYS === '1';
const port = await benchPort();
const postgresServer = process.env.BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const STOCK = 1_000_000;
const LINES = 3;

interface Buyer {
  userId: string;
  token: string;
  partIds: string[];
}

interface Row {
  scenario: string;
  checkoutsPerSecond: number;
  p50: number;
  p99: number;
  checkouts: number;
  /**
   * The server process's CPU time (user + system) per answered checkout: on a shared machine the checkouts per second
   * follow the load, the CPU cost of one much less.
   */
  cpuMsPerCheckout: number;
  /** Answers other than 201, by status. */
  failed: string;
  consistent: string;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function runScenario(
  base: string,
  serverPid: number,
  client: pg.Pool,
  scenario: string,
  buyers: Buyer[],
  seconds = duration,
): Promise<Row> {
  const stockBefore = await totalStock(client, buyers);
  const ordersBefore = await orderCount(client, buyers);
  const latencies: number[] = [];
  const failures = new Map<number, number>();
  const cpuBefore = processCpuMillis(serverPid);
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    buyers.map(async (buyer) => {
      while (performance.now() < deadline) {
        await client.query(
          `insert into cart_items (user_id, part_id, quantity)
           select $1::uuid, unnest($2::uuid[]), 1
           on conflict (user_id, part_id) do update set quantity = excluded.quantity`,
          [buyer.userId, buyer.partIds],
        );
        const t0 = performance.now();
        const res = await fetch(`${base}/api/checkout`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${buyer.token}`,
            ...(withKeys ? { 'idempotency-key': crypto.randomUUID() } : {}),
          },
          body: JSON.stringify({ address: '1 Bench Road', phone: '555 0100' }),
        });
        await res.arrayBuffer();
        if (res.status === 201) latencies.push(performance.now() - t0);
        else failures.set(res.status, (failures.get(res.status) ?? 0) + 1);
      }
    }),
  );
  const wall = (performance.now() - started) / 1000;
  // A request the server answered early (a timeout, load shedding) may still be committing: let it finish.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const cpuMs = processCpuMillis(serverPid) - cpuBefore;
  const stockAfter = await totalStock(client, buyers);
  const ordersAfter = await orderCount(client, buyers);
  latencies.sort((a, b) => a - b);
  const sold = ordersAfter - ordersBefore;
  // Units ordered (one per line) against stock taken: equal, and a whole number of 3-line checkouts (no partial one).
  const consistent =
    stockBefore - stockAfter === sold && sold % LINES === 0 && sold >= latencies.length * LINES
      ? `yes (${sold / LINES} checkouts written)`
      : `NO: stock -${stockBefore - stockAfter}, units ordered +${sold}, checkouts answered ${latencies.length}`;
  return {
    scenario,
    checkoutsPerSecond: latencies.length / wall,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    checkouts: latencies.length,
    cpuMsPerCheckout: cpuMs / Math.max(1, latencies.length),
    failed: [...failures].map(([status, count]) => `${count} × ${status}`).join(', ') || '0',
    consistent,
  };
}

async function totalStock(client: pg.Pool, buyers: Buyer[]): Promise<number> {
  const ids = [...new Set(buyers.flatMap((buyer) => buyer.partIds))];
  const { rows } = await client.query<{ n: string }>(
    'select coalesce(sum(available_quantity), 0) as n from parts where id = any($1::uuid[])',
    [ids],
  );
  return Number(rows[0]?.n ?? 0);
}

/** Orders of the scenario's parts only: a late commit of another scenario's request does not count here. */
async function orderCount(client: pg.Pool, buyers: Buyer[]): Promise<number> {
  const ids = [...new Set(buyers.flatMap((buyer) => buyer.partIds))];
  const { rows } = await client.query<{ n: string }>(
    'select coalesce(sum(quantity), 0) as n from orders where part_id = any($1::uuid[])',
    [ids],
  );
  return Number(rows[0]?.n ?? 0);
}

async function benchmark(databaseUrl: string): Promise<Row[]> {
  // The mails go to .eml files in a directory of the run's own (not the work tree's data/mail, which thousands of
  // mails per run would fill), removed at the end.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-bench-checkout-'));
  const server = await startProductionServer({
    port,
    databaseUrl,
    env: {
      ...BENCH_SHOP_ENV,
      DATA_DIR: dataDir,
      // Every customer piles up unpaid orders here; the hold limit is not what is measured.
      ORDER_HOLD_LIMIT: 'off',
      ...NO_LOAD_SHEDDING,
    },
  }).catch((error: unknown) => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const client = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const rows: Row[] = [];
  try {
    const base = server.baseUrl;
    const adminToken = await logInBenchAdmin(base);
    const hotParts: string[] = [];
    for (let i = 0; i < LINES; i++) hotParts.push(await addBenchPart(base, adminToken, `Bench Hot ${i}`, STOCK));
    const hot: Buyer[] = [];
    const own: Buyer[] = [];
    for (let i = 0; i < connections; i++) {
      const email = `bench-checkout${i}-${Date.now().toString(36)}@example.com`;
      const token = await signUpCustomer(server, { name: `Bench Buyer ${i}`, email, password: 'bench-password' });
      // The API never answers user ids; the refill statement needs it.
      const { rows: found } = await client.query<{ id: string }>('select id from users where email = $1', [email]);
      const userId = found[0]?.id;
      if (!userId) throw new Error(`no user ${email}`);
      const ownParts: string[] = [];
      for (let j = 0; j < LINES; j++) ownParts.push(await addBenchPart(base, adminToken, `Bench ${i}-${j}`, STOCK));
      hot.push({ userId, token, partIds: hotParts });
      own.push({ userId, token, partIds: ownParts });
    }
    // Warm-up (JIT, pools), not measured.
    await runScenario(base, server.pid, client, 'warm-up', own.slice(0, 4));
    rows.push(await runScenario(base, server.pid, client, 'same 3 hot parts', hot));
    rows.push(await runScenario(base, server.pid, client, '3 own parts each', own));
    // One customer alone: no queueing on the server, so p50 is one checkout's own latency (round trips and CPU).
    rows.push(await runScenario(base, server.pid, client, '1 customer alone', own.slice(0, 1), singleDuration));
  } finally {
    await client.end();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

function table(rows: Row[]): string {
  const header = [
    'scenario',
    'checkouts/s',
    'p50 ms',
    'p99 ms',
    'checkouts',
    'server CPU ms/checkout',
    'failed',
    'stock + orders = start',
  ];
  const lines = rows.map((r) => [
    r.scenario,
    r.checkoutsPerSecond.toFixed(0),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    String(r.checkouts),
    r.cpuMsPerCheckout.toFixed(2),
    r.failed,
    r.consistent,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const render = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [render(header), render(widths.map((w) => '-'.repeat(w))), ...lines.map(render)].join('\n');
}

const name = `redline_bench_checkout_${process.pid}`;
const databaseUrl = await createPostgresDatabase(postgresServer, name);
let rows: Row[] = [];
try {
  console.log(
    `PostgreSQL database ${name}: ${connections} customers, ${duration} s per scenario` +
      (withKeys ? ', an Idempotency-Key on every checkout' : ''),
  );
  rows = await benchmark(databaseUrl);
} finally {
  await dropPostgresDatabase(postgresServer, name);
}
const [load1, load5] = os.loadavg();
console.log(
  `\nPOST /api/checkout (3 lines), PostgreSQL, Node ${process.version}, ${os.cpus().length} CPUs, ` +
    `load average ${load1?.toFixed(2)} / ${load5?.toFixed(2)} (1 / 5 min)\n`,
);
console.log(table(rows));
console.log('\nGoal (issue 12): >= 300 checkouts/s and p99 <= 100 ms on 2 cores.');
if (rows.some((row) => row.failed !== '0' || !row.consistent.startsWith('yes'))) process.exitCode = 1;
