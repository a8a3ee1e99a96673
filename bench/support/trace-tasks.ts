/**
 * The main thread's tasks in a Chromium performance trace, each with what it spent its time on (script by file, style,
 * layout, parsing…): shared by bench/page-trace.ts (a trace it records) and bench/trace-tasks.ts (one Lighthouse
 * recorded, `BENCH_WEB_JSON`).
 */

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string } };
}

/** The trace events a task is told apart by; every kind when `everyEvent` (PAGE_TRACE_ALL). */
const USUAL = new Set([
  'EvaluateScript',
  'v8.compileModule',
  'v8.evaluateModule',
  'FunctionCall',
  'UpdateLayoutTree',
  'Layout',
  'ParseHTML',
  'Paint',
  'TimerFire',
  'FireAnimationFrame',
  'EventDispatch',
  'ParseAuthorStyleSheet',
  'MajorGC',
  'MinorGC',
]);

export interface MainTask {
  /** From the main thread's first event, ms. */
  at: number;
  ms: number;
  /** The largest parts, "<event> <url> <ms>", largest first. */
  parts: string[];
}

/** The page's renderer main thread: the one that ran the most (about:blank has one too). */
function mainThread(events: TraceEvent[]): TraceEvent[] {
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const count = new Map<string, number>();
  for (const e of events) if (e.ph === 'X') count.set(`${e.pid}:${e.tid}`, (count.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const main = mains.sort((a, b) => (count.get(`${b.pid}:${b.tid}`) ?? 0) - (count.get(`${a.pid}:${a.tid}`) ?? 0))[0];
  return events.filter((e) => main && e.tid === main.tid && e.pid === main.pid && e.ph === 'X');
}

/** Every main-thread task longer than `minMs`, in order, with its largest parts (URLs shown without `origin`). */
export function mainThreadTasks(
  events: TraceEvent[],
  options: { minMs: number; origin?: string; everyEvent?: boolean },
): { tasks: MainTask[]; start: number } {
  const onMain = mainThread(events);
  const start = Math.min(...onMain.map((e) => e.ts));
  const tasks: MainTask[] = [];
  for (const task of onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > options.minMs * 1000)) {
    const end = task.ts + (task.dur ?? 0);
    const by = new Map<string, number>();
    for (const e of onMain) {
      if (e === task || e.ts < task.ts || e.ts + (e.dur ?? 0) > end) continue;
      if (!options.everyEvent && !USUAL.has(e.name)) continue;
      let url = e.args?.data?.url ?? '';
      if (options.origin) url = url.replace(options.origin, '');
      const key = url ? `${e.name} ${url.length > 80 ? `${url.slice(0, 77)}...` : url}` : e.name;
      by.set(key, (by.get(key) ?? 0) + (e.dur ?? 0));
    }
    const parts = [...by]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`);
    tasks.push({ at: (task.ts - start) / 1000, ms: (task.dur ?? 0) / 1000, parts });
  }
  return { tasks, start };
}

/** Time from the main thread's first event to the first contentful paint, ms (undefined when the trace has none). */
export function firstContentfulPaint(events: TraceEvent[], start: number): number | undefined {
  const fcp = events.find((e) => e.name === 'firstContentfulPaint');
  return fcp ? (fcp.ts - start) / 1000 : undefined;
}

/** Blocking time as Lighthouse's mobile simulation counts it: each task `slowdown`× longer, its part over 50 ms. */
export function blockingTime(tasks: MainTask[], slowdown: number): number {
  return tasks.reduce((sum, task) => sum + Math.max(0, task.ms * slowdown - 50), 0);
}
