import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';

export interface IdleMemoryOptions {
  /** How often the loop's utilisation is sampled. Default 2 s. */
  sampleMs?: number;
  /** Below this share of the sample spent running JavaScript, the process counts as quiet. Default 2 %. */
  quietUtilization?: number;
  /**
   * How long the loop must have been quiet, sample after sample, before the collection. Default 10 s: a pause of a
   * few seconds between visitors is not rest. The collection shrinks the young generation, and until it has grown
   * back every request costs noticeably more CPU, so collecting after a short pause would slow the requests that
   * follow it (bench/catalog-cache.ts, whose turns leave the server idle for seconds, shows it).
   */
  quietForMs?: number;
  /** At most one collection per this many milliseconds. Default 60 s. */
  minIntervalMs?: number;
  /** Told how much the collection gave back (debug logging). */
  onCollected?: (result: { rssBeforeMb: number; rssAfterMb: number; ms: number }) => void;
}

export interface IdleMemory {
  stop(): void;
}

type GcFunction = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

let gcFunction: GcFunction | undefined;

/**
 * V8's `gc()` without starting Node with `--expose-gc` (the server is started by `npm start`, systemd, the tests and
 * the benchmarks alike): the flag set at run time exposes it to contexts created afterwards.
 */
function memoryReducingGc(): GcFunction {
  if (!gcFunction) {
    v8.setFlagsFromString('--expose-gc');
    gcFunction = vm.runInNewContext('gc') as GcFunction;
  }
  return gcFunction;
}

/**
 * Gives back memory when the server has gone quiet (memory at rest has a budget: docs/performance.md).
 *
 * V8 grows its young generation while the process starts (compiling, building routes and schemas) and under load, and
 * keeps it committed when the process then does nothing, a sizeable share of a server at rest; V8's own memory reducer
 * does not step in while only young-generation collections run. One memory-reducing collection (V8's "last resort": a
 * full collection that also shrinks the young generation) once the event loop has been quiet for a while gives that
 * memory back; it blocks the loop for a noticeable time, so it runs only after a quiet spell and at most once per
 * `minIntervalMs`. Under load nothing changes: the young generation grows back as it did after start-up (capping it
 * with `--max-semi-space-size` instead costs catalogue-read throughput all the time).
 */
export function startIdleMemoryRelease(options: IdleMemoryOptions = {}): IdleMemory {
  const sampleMs = options.sampleMs ?? 2000;
  const quiet = options.quietUtilization ?? 0.02;
  const minIntervalMs = options.minIntervalMs ?? 60_000;
  const quietSamplesNeeded = Math.max(1, Math.ceil((options.quietForMs ?? 10_000) / sampleMs));
  let quietSamples = 0;
  let previous = performance.eventLoopUtilization();
  let lastCollection = Number.NEGATIVE_INFINITY;
  // Busy since the last collection: a server that stays quiet is collected once, not every minute.
  let busySinceCollection = true;

  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const sample = performance.eventLoopUtilization(now, previous);
    previous = now;
    // Time spent running JavaScript against a whole sample, not the ratio of this one: a sample cut short (the timer
    // catching up after a collection) must not count as busy for a few milliseconds of work.
    if (sample.active >= quiet * sampleMs) {
      busySinceCollection = true;
      quietSamples = 0;
      return;
    }
    quietSamples += 1;
    if (quietSamples < quietSamplesNeeded) return;
    if (!busySinceCollection || performance.now() - lastCollection < minIntervalMs) return;
    const rssBefore = process.memoryUsage.rss();
    const started = performance.now();
    memoryReducingGc()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    lastCollection = performance.now();
    busySinceCollection = false;
    // The collection itself must not count as busy in the next sample.
    previous = performance.eventLoopUtilization();
    options.onCollected?.({
      rssBeforeMb: Math.round(rssBefore / 1e6),
      rssAfterMb: Math.round(process.memoryUsage.rss() / 1e6),
      ms: Math.round(lastCollection - started),
    });
  }, sampleMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
