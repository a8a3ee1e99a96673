import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createPostgresDatabase, dropPostgresDatabase } from './support/database.ts';
import { addBenchPart, BENCH_SHOP_ENV, json, logInBenchAdmin, signUpCustomer } from './support/http.ts';
import { processCpuMillis } from './support/process-stats.ts';
import { benchPort, startProductionServer } from './support/server.ts';

/**
 * Order placement under concurrent load, against the production server (child process, NODE_ENV=production),
 * once on PGlite and once on PostgreSQL. Every request is a signed-in customer placing a real order
 * (POST /api/myorder): a transaction with the conditional stock update and the insert.
 *
 *   node bench/orders-throughput.ts
 *
 * Two scenarios per database: every buyer on ONE hot part (all transactions queue on one row), and buyers
 * spread over their own parts. Afterwards it checks that stock + ordered units = starting stock.
 *
 * BENCH_DURATION (seconds per scenario, default 10), BENCH_CONNECTIONS (default 20), BENCH_PORT (default: a free port),
 * BENCH_POSTGRES (server URL, default postgres://postgres@127.0.0.1:5432/postgres; "skip" to skip PostgreSQL),
 * BENCH_PGLITE ("skip" to skip PGlite).
 *
 * "server CPU ms/order" is the server process's CPU time (/proc, all its threads) over the scenario divided by the
 * orders it answered: what one order costs the server, which the machine's load moves much less than orders/s.
 */
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const port = await benchPort();
const postgresServer = process.env.BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const STOCK = 1_000_000;

interface Row {
  database: string;
  scenario: string;
  ordersPerSecond: number;
  p50: number;
  p99: number;
  cpuPerOrder: number;
  total: number;
  non2xx: number;
  errors: number;
  consistent: string;
}

async function stockAndOrdered(base: string, token: string, partIds: string[]) {
  let stock = 0;
  for (const id of partIds)
    stock += (await json<{ availablequantity: number }>(await fetch(`${base}/api/part/${id}`))).availablequantity;
  const all = await fetch(`${base}/api/allorder?limit=1`, { headers: { authorization: `Bearer ${token}` } });
  await json(all);
  return { stock, orders: Number(all.headers.get('x-total-count')) };
}

async function runScenario(
  base: string,
  title: string,
  buyers: { token: string; partId: string }[],
): Promise<Awaited<ReturnType<typeof autocannon>>> {
  let next = 0;
  // Each connection is one customer; autocannon's setupClient gives it its token and its part.
  const options = {
    url: `${base}/api/myorder`,
    method: 'POST',
    connections,
    duration,
    title,
    headers: { 'content-type': 'application/json' },
    setupClient: (client: { setHeaders(h: Record<string, string>): void; setBody(b: string): void }) => {
      const buyer = buyers[next++ % buyers.length];
      if (!buyer) return;
      client.setHeaders({ 'content-type': 'application/json', authorization: `Bearer ${buyer.token}` });
      client.setBody(JSON.stringify({ partId: buyer.partId, quantity: 1, address: '1 Bench Road', phone: '555 0100' }));
    },
  };
  return autocannon(options as Parameters<typeof autocannon>[0]);
}

async function benchmark(database: string, target: { databaseUrl?: string; dataDir?: string }): Promise<Row[]> {
  const server = await startProductionServer({
    port,
    ...target,
    env: {
      ...BENCH_SHOP_ENV,
    },
  });
  const rows: Row[] = [];
  try {
    const base = server.baseUrl;
    const adminToken = await logInBenchAdmin(base);
    const hotPart = await addBenchPart(base, adminToken, 'Bench Hot Part', STOCK);
    const buyers: { token: string; partId: string; ownPart: string }[] = [];
    for (let i = 0; i < connections; i++) {
      const token = await signUpCustomer(server, {
        name: `Bench Buyer ${i}`,
        email: `bench${i}-${Date.now().toString(36)}@example.com`,
        password: 'bench-password',
      });
      buyers.push({
        token,
        partId: hotPart,
        ownPart: await addBenchPart(base, adminToken, `Bench Part ${i}`, STOCK),
      });
    }
    const partIds = [hotPart, ...buyers.map((b) => b.ownPart)];
    const scenarios: [string, { token: string; partId: string }[]][] = [
      ['one hot part', buyers],
      ['own part each', buyers.map((b) => ({ token: b.token, partId: b.ownPart }))],
    ];
    // Warm-up (JIT, pools), not measured.
    await autocannon({ url: `${base}/api/health`, connections: 4, duration: 2 });
    for (const [scenario, list] of scenarios) {
      const before = await stockAndOrdered(base, adminToken, partIds);
      const cpuBefore = processCpuMillis(server.pid);
      const result = await runScenario(base, scenario, list);
      // autocannon stops counting at the deadline; requests still in flight finish on the server first (and the
      // mails the orders queued are written meanwhile: part of an order's cost).
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const cpuMillis = processCpuMillis(server.pid) - cpuBefore;
      const after = await stockAndOrdered(base, adminToken, partIds);
      const sold = after.orders - before.orders;
      rows.push({
        database,
        scenario,
        ordersPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        cpuPerOrder: cpuMillis / Math.max(1, result.requests.total),
        total: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors,
        consistent:
          before.stock - after.stock === sold
            ? `yes (${sold} sold)`
            : `NO: stock -${before.stock - after.stock}, orders +${sold}`,
      });
    }
  } finally {
    await server.stop();
  }
  return rows;
}

function table(rows: Row[]): string {
  const header = [
    'database',
    'scenario',
    'orders/s',
    'p50 ms',
    'p99 ms',
    'server CPU ms/order',
    'requests',
    'non-2xx',
    'errors',
    'stock + orders = start',
  ];
  const lines = rows.map((r) => [
    r.database,
    r.scenario,
    r.ordersPerSecond.toFixed(0),
    String(r.p50),
    String(r.p99),
    r.cpuPerOrder.toFixed(2),
    String(r.total),
    String(r.non2xx),
    String(r.errors),
    r.consistent,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const render = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [render(header), render(widths.map((w) => '-'.repeat(w))), ...lines.map(render)].join('\n');
}

const rows: Row[] = [];
if (process.env.BENCH_PGLITE !== 'skip') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-bench-orders-'));
  try {
    console.log(`PGlite in ${dataDir}: ${connections} connections, ${duration} s per scenario`);
    rows.push(...(await benchmark('PGlite', { dataDir })));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
if (postgresServer !== 'skip') {
  const name = `redline_bench_orders_${process.pid}`;
  const databaseUrl = await createPostgresDatabase(postgresServer, name);
  try {
    console.log(`PostgreSQL database ${name}: ${connections} connections, ${duration} s per scenario`);
    rows.push(...(await benchmark('PostgreSQL', { databaseUrl })));
  } finally {
    await dropPostgresDatabase(postgresServer, name);
  }
}
console.log(
  `\nPOST /api/myorder (signed-in customers, quantity 1), Node ${process.version}, ${os.cpus().length} CPUs\n`,
);
console.log(table(rows));
