/**
 * The long tasks in a trace Lighthouse recorded (issue 15, TBT): Lighthouse's mobile figures are a simulation that
 * takes this unthrottled trace and runs its main-thread tasks 4× slower, so a task over 12.5 ms here is a "long
 * task" there and counts toward Total Blocking Time (the part over 50 ms, after the first contentful paint).
 *
 *   BENCH_WEB_JSON=/tmp/lh/r BENCH_WEB_RUNS=1 npm run bench:web      # writes /tmp/lh/r-<page>-mobile.trace.json
 *   node bench/trace-tasks.ts /tmp/lh/r-home-mobile.trace.json [min ms, default 5]
 */

import fs from 'node:fs';
import { blockingTime, firstContentfulPaint, mainThreadTasks, type TraceEvent } from './support/trace-tasks.ts';

const [file, min] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/trace-tasks.ts <trace.json> [min ms]');
  process.exit(2);
}
const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
const { tasks, start } = mainThreadTasks(events, {
  minMs: Number(min ?? 5),
  origin: /^https?:\/\/[^/]+/.exec(
    events.find((e) => e.args?.data?.url?.startsWith('http'))?.args?.data?.url ?? '',
  )?.[0],
  everyEvent: process.env.PAGE_TRACE_ALL === '1',
});
const fcp = firstContentfulPaint(events, start);
console.log(`first contentful paint at ${fcp === undefined ? '?' : fcp.toFixed(0)} ms (unthrottled)`);
for (const task of tasks) {
  const mark = task.ms * 4 > 50 ? ' LONG×4' : '';
  console.log(`  at ${task.at.toFixed(0)} ms: ${task.ms.toFixed(1)} ms${mark}  [${task.parts.join('; ')}]`);
}
const afterFcp = tasks.filter((task) => fcp === undefined || task.at + task.ms > fcp);
console.log(`blocking time ×4 of the tasks ending after the first paint: ${blockingTime(afterFcp, 4).toFixed(0)} ms`);
