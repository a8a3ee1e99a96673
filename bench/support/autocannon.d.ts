// autocannon ships no types; this declares the part of its API the benchmarks use.
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }
  interface Result {
    title?: string;
    url: string;
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    title?: string;
    pipelining?: number;
    setupClient?: (client: { setHeaders(h: Record<string, string>): void; setBody(b: string): void }) => void;
    /** Requests each connection sends in turn (paths relative to `url`). */
    requests?: { method?: string; path: string }[];
  }
  function autocannon(options: Options): Promise<Result>;
  // biome-ignore lint/style/noDefaultExport: declares the package's own (CommonJS) default export.
  export default autocannon;
}
