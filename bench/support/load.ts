import autocannon from 'autocannon';

export interface LoadOptions {
  title: string;
  url: string;
  connections?: number;
  durationSeconds?: number;
  headers?: Record<string, string>;
  method?: string;
  body?: string;
  /** Per-connection set-up (autocannon's setupClient), e.g. one customer's token and body per connection. */
  setupClient?: (client: { setHeaders(h: Record<string, string>): void; setBody(b: string): void }) => void;
}

export interface LoadFigures {
  title: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  averageMs: number;
  total: number;
  non2xx: number;
  errors: number;
}

/** Runs autocannon against one URL and keeps the figures a report needs. */
export async function measure(options: LoadOptions): Promise<LoadFigures> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections ?? 10,
    duration: options.durationSeconds ?? 10,
    headers: options.headers ?? {},
    title: options.title,
    ...(options.method ? { method: options.method } : {}),
    ...(options.body ? { body: options.body } : {}),
    ...(options.setupClient ? { setupClient: options.setupClient } : {}),
  });
  return loadFigures(options.title, result);
}

/** The figures a report keeps from one autocannon run. */
export function loadFigures(title: string, result: Awaited<ReturnType<typeof autocannon>>): LoadFigures {
  return {
    title,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    averageMs: result.latency.average,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** A short warm-up so JIT and connection pools are settled before the measured run. */
export async function warmUp(url: string, headers: Record<string, string> = {}): Promise<void> {
  await autocannon({ url, connections: 4, duration: 2, headers });
}

export function formatFigures(rows: LoadFigures[]): string {
  const header = ['endpoint', 'req/s', 'p50 ms', 'p99 ms', 'avg ms', 'requests', 'non-2xx', 'errors'];
  const lines = rows.map((r) => [
    r.title,
    r.requestsPerSecond.toFixed(0),
    String(r.p50Ms),
    String(r.p99Ms),
    r.averageMs.toFixed(2),
    String(r.total),
    String(r.non2xx),
    String(r.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const render = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [render(header), render(widths.map((w) => '-'.repeat(w))), ...lines.map(render)].join('\n');
}

/** One caller, no HTTP: a statement's fastest and median time over `runs`, after five warm-up runs. */
export interface StatementTiming {
  title: string;
  minMs: number;
  medianMs: number;
}

export async function timeStatement(
  title: string,
  run: () => Promise<unknown>,
  runs: number,
): Promise<StatementTiming> {
  for (let i = 0; i < 5; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { title, minMs: times[0] ?? 0, medianMs: times[Math.floor(times.length / 2)] ?? 0 };
}
