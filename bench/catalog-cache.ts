import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXIT_WITH_PARENT } from '../test/support/server-process.ts';
import { seedCatalog } from './seed-catalog.ts';
import { createPostgresDatabase, dropPostgresDatabase } from './support/database.ts';
import { type LoadFigures, measure, warmUp } from './support/load.ts';
import { processCpuMillis } from './support/process-stats.ts';
import { benchPort, NO_LOAD_SHEDDING, startProductionServer } from './support/server.ts';

/**
 * Cached catalogue reads (ADR 016, ADR 026: answered on Fastify's usual path, every hook included) against the
 * framework's limit, in one run on PostgreSQL with the 1,000-part demo-size catalogue. It starts the production
 * server, fetches the exact bytes of `GET /api/part?limit=20` and `GET /api/part/:id`, starts a bare Fastify 5 server
 * (bench/support/bare-server.ts, a process of its own) answering those bytes with the same content type, and runs
 * autocannon against each; then ours once more asked as a browser asks (`accept-encoding: br, gzip`: compressed by
 * @fastify/compress on every answer), and ours again with CATALOG_CACHE=off. Budget: ours ≥ 40 % of the bare route's
 * requests per second, printed with the verdict, not asserted (a shared machine's load moves it); the command exits
 * 1 only when a request failed.
 *
 *   node bench/catalog-cache.ts
 *   BENCH_POSTGRES=postgres://postgres@127.0.0.1:5432/postgres BENCH_DURATION=10 node bench/catalog-cache.ts
 *
 * BENCH_DURATION (seconds per case, default 10), BENCH_CONNECTIONS (default 10). The database redline_bench_cache_<pid>
 * is created on BENCH_POSTGRES and dropped afterwards. Also run by `npm run bench` (bench/run-all.ts).
 */
const PARTS = 1000;
const BUDGET_SHARE = 0.4;
/** What a browser sends: the kept answer is then compressed on its way out. */
const BROWSER_ENCODINGS = { 'accept-encoding': 'br, gzip' };
const ROUNDS = 2;

/** Load figures and the server process's CPU time per answered request (user + system, from /proc). */
type Figures = LoadFigures & { cpuMicrosPerRequest: number };

export interface CacheBenchRow {
  title: string;
  bare: Figures;
  ours: Figures;
  /** Ours, asked with `accept-encoding: br, gzip`. */
  oursCompressed: Figures;
  off: Figures;
}

interface Options {
  postgresServer: string;
  durationSeconds: number;
  connections: number;
}

export async function benchmarkCatalogCache(options: Options): Promise<CacheBenchRow[]> {
  const name = `redline_bench_cache_${process.pid}`;
  const databaseUrl = await createPostgresDatabase(options.postgresServer, name);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-bench-cache-'));
  try {
    await seedCatalog({ databaseUrl, describe: `PostgreSQL ${name}` }, PARTS);
    const start = async (cache: 'on' | 'off') =>
      startProductionServer({
        port: await benchPort(),
        databaseUrl,
        env: {
          SEED_DEMO_DATA: 'false',
          CATALOG_CACHE: cache,
          ...NO_LOAD_SHEDDING,
        },
      });

    let server = await start('on');
    const cases: { title: string; path: string; barePath: string }[] = [];
    const bareRoutes: { path: string; file: string; contentType: string }[] = [];
    try {
      const first = (await (await fetch(`${server.baseUrl}/api/part?limit=1`)).json()) as { _id: string }[];
      const id = first[0]?._id;
      if (!id) throw new Error('The catalogue is empty: seeding failed?');
      for (const [title, urlPath, barePath] of [
        ['GET /api/part?limit=20', '/api/part?limit=20', '/list'],
        ['GET /api/part/:id', `/api/part/${id}`, '/part'],
      ] as const) {
        const response = await fetch(`${server.baseUrl}${urlPath}`);
        const body = Buffer.from(await response.arrayBuffer());
        // The answer from memory must be the very bytes the database answer had.
        const again = Buffer.from(await (await fetch(`${server.baseUrl}${urlPath}`)).arrayBuffer());
        if (!again.equals(body)) throw new Error(`${title}: the kept answer differs from the first`);
        const file = path.join(workDir, barePath.slice(1));
        fs.writeFileSync(file, body);
        bareRoutes.push({ path: barePath, file, contentType: response.headers.get('content-type') ?? '' });
        cases.push({ title, path: urlPath, barePath });
        console.log(`  ${title}: ${body.length} bytes, ${response.headers.get('content-type')}`);
      }

      const bare = await startBareServer(bareRoutes);
      const results = new Map<string, { bare: Figures; ours: Figures; oursCompressed: Figures }>();
      try {
        for (const c of cases) {
          // Bare and ours take turns (ROUNDS each, half the time per turn) so a shared machine's load, which comes
          // and goes, weighs on both alike.
          const bareUrl = `${bare.baseUrl}${c.barePath}`;
          const ourUrl = `${server.baseUrl}${c.path}`;
          await warmUp(bareUrl);
          await warmUp(ourUrl);
          const bareRuns: Figures[] = [];
          const ourRuns: Figures[] = [];
          for (let round = 0; round < ROUNDS; round++) {
            const turn = { connections: options.connections, durationSeconds: options.durationSeconds / ROUNDS };
            bareRuns.push(await measured(bare.pid, { title: `bare ${c.title}`, url: bareUrl, ...turn }));
            ourRuns.push(await measured(server.pid, { title: c.title, url: ourUrl, ...turn }));
          }
          const bareFigures = combine(bareRuns);
          const ourFigures = combine(ourRuns);
          await warmUp(ourUrl, BROWSER_ENCODINGS);
          const oursCompressed = await measured(server.pid, {
            title: `${c.title} (br)`,
            url: ourUrl,
            headers: BROWSER_ENCODINGS,
            connections: options.connections,
            durationSeconds: options.durationSeconds / ROUNDS,
          });
          results.set(c.title, { bare: bareFigures, ours: ourFigures, oursCompressed });
          console.log(`  ${c.title}: ${share(ourFigures, bareFigures)} of bare (load ${load()})`);
        }
      } finally {
        await bare.stop();
      }
      await server.stop();

      server = await start('off');
      const rows: CacheBenchRow[] = [];
      for (const c of cases) {
        const url = `${server.baseUrl}${c.path}`;
        await warmUp(url);
        const off = await measured(server.pid, {
          title: `${c.title} (cache off)`,
          url,
          connections: options.connections,
          durationSeconds: options.durationSeconds,
        });
        const cached = results.get(c.title);
        if (cached) rows.push({ title: c.title, ...cached, off });
      }
      return rows;
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
    await dropPostgresDatabase(options.postgresServer, name);
  }
}

/**
 * One autocannon run, with the CPU time the server process spent per request: on a shared machine the requests per
 * second follow the load, while the CPU cost of one answer moves much less.
 */
async function measured(pid: number, options: Parameters<typeof measure>[0]): Promise<Figures> {
  const before = processCpuMillis(pid);
  const figures = await measure(options);
  return { ...figures, cpuMicrosPerRequest: ((processCpuMillis(pid) - before) * 1000) / Math.max(1, figures.total) };
}

/** Several runs as one: requests per second over the whole time, the worst p99. */
function combine(runs: Figures[]): Figures {
  const [first] = runs;
  if (!first) throw new Error('no runs');
  const mean = (pick: (f: Figures) => number) => runs.reduce((sum, f) => sum + pick(f), 0) / runs.length;
  return {
    title: first.title,
    requestsPerSecond: mean((f) => f.requestsPerSecond),
    p50Ms: Math.max(...runs.map((f) => f.p50Ms)),
    p99Ms: Math.max(...runs.map((f) => f.p99Ms)),
    averageMs: mean((f) => f.averageMs),
    total: runs.reduce((sum, f) => sum + f.total, 0),
    non2xx: runs.reduce((sum, f) => sum + f.non2xx, 0),
    errors: runs.reduce((sum, f) => sum + f.errors, 0),
    cpuMicrosPerRequest: mean((f) => f.cpuMicrosPerRequest),
  };
}

function share(ours: LoadFigures, bare: LoadFigures): string {
  return `${((100 * ours.requestsPerSecond) / bare.requestsPerSecond).toFixed(0)} %`;
}

function load(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

export function formatCacheRows(rows: CacheBenchRow[]): string {
  const header = [
    'case',
    'bare req/s',
    'bare p99',
    'bare CPU/req',
    'ours req/s',
    'ours p99',
    'ours CPU/req',
    'share',
    'br req/s',
    'br p99',
    'br CPU/req',
    'off req/s',
    'off p99',
    'off CPU/req',
    'share',
  ];
  const cpu = (f: Figures) => `${f.cpuMicrosPerRequest.toFixed(0)} µs`;
  const lines = rows.map((r) => [
    r.title,
    r.bare.requestsPerSecond.toFixed(0),
    `${r.bare.p99Ms} ms`,
    cpu(r.bare),
    r.ours.requestsPerSecond.toFixed(0),
    `${r.ours.p99Ms} ms`,
    cpu(r.ours),
    share(r.ours, r.bare),
    r.oursCompressed.requestsPerSecond.toFixed(0),
    `${r.oursCompressed.p99Ms} ms`,
    cpu(r.oursCompressed),
    r.off.requestsPerSecond.toFixed(0),
    `${r.off.p99Ms} ms`,
    cpu(r.off),
    share(r.off, r.bare),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const render = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [render(header), render(widths.map((w) => '-'.repeat(w))), ...lines.map(render)].join('\n');
}

/** Each case's share of the bare route against the budget, in words (printed, not asserted). */
export function cacheBenchVerdicts(rows: CacheBenchRow[]): string[] {
  return rows.map((r) => {
    const met = r.ours.requestsPerSecond >= BUDGET_SHARE * r.bare.requestsPerSecond;
    return `${r.title}: ${share(r.ours, r.bare)} of the bare route (budget ≥ ${BUDGET_SHARE * 100} %: ${met ? 'met' : 'MISSED'})`;
  });
}

/** Failed requests, in words: the only thing that fails the command. */
export function cacheBenchProblems(rows: CacheBenchRow[]): string[] {
  const problems: string[] = [];
  for (const r of rows) {
    for (const f of [r.bare, r.ours, r.oursCompressed, r.off]) {
      if (f.non2xx + f.errors > 0) problems.push(`${f.title}: ${f.non2xx} non-2xx, ${f.errors} errors`);
    }
  }
  return problems;
}

async function startBareServer(routes: { path: string; file: string; contentType: string }[]) {
  const port = await benchPort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', EXIT_WITH_PARENT, path.join(import.meta.dirname, 'support/bare-server.ts')],
    {
      env: { ...process.env, BARE_PORT: String(port), BARE_ROUTES: JSON.stringify(routes) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`The bare server exited with code ${code}`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid ?? -1,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

if (import.meta.main) {
  const durationSeconds = Number(process.env.BENCH_DURATION ?? 10);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
  const postgresServer = process.env.BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  console.log(`${new Date().toISOString()}  ${os.cpus().length} CPUs, Node ${process.version}, load ${load()}`);
  console.log(`PostgreSQL, ${PARTS} parts, ${connections} connections, ${durationSeconds} s per case\n`);
  const rows = await benchmarkCatalogCache({ postgresServer, durationSeconds, connections });
  console.log(`\n${formatCacheRows(rows)}\n`);
  for (const verdict of cacheBenchVerdicts(rows)) console.log(verdict);
  console.log(`(load afterwards ${load()})`);
  const problems = cacheBenchProblems(rows);
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) process.exitCode = 1;
}
