/**
 * Where a server-rendered page's main-thread time goes while it loads (issue 15, TBT): loads one page of the production
 * build in Debian's Chromium with the CPU slowed 4× (Lighthouse's mobile setting), records a performance trace and
 * prints every main-thread task over 12 ms with what it spent its time on (script by file, style, layout, parsing).
 *
 *   npm run build && node bench/page-trace.ts [/path ...]      # default: / /allparts /part/first
 *
 * PAGE_TRACE_CPU=1 records without the slowdown (what Lighthouse's simulation measures and then multiplies by 4; tasks
 * over 12 ms / that rate are printed).
 *
 * PAGE_TRACE_PROFILE=<dir> also writes each page's JavaScript CPU profile there (`<page>.cpuprofile`; read it with
 * `node bench/cpu-profile-summary.ts <file>` or Chromium's DevTools).
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium.ts';
import { benchPort, startProductionServer } from './support/server.ts';
import { blockingTime, mainThreadTasks, type TraceEvent } from './support/trace-tasks.ts';

// PAGE_TRACE_ALL=1: every kind of trace event inside a task, not only the usual suspects.
const everyEvent = process.env.PAGE_TRACE_ALL === '1';
const cpuRate = Number(process.env.PAGE_TRACE_CPU ?? 4);
const pages = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['/', '/allparts', '/part/first'];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-trace-'));
const server = await startProductionServer({ port: await benchPort(), dataDir });
const browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS], headless: true });
try {
  for (let pagePath of pages) {
    if (pagePath === '/part/first') {
      // The spec's spelling of a part's id is `_id`.
      const list = (await (await fetch(`${server.baseUrl}/api/part?limit=1`)).json()) as { _id: string }[];
      pagePath = `/part/${list[0]?._id}`;
    }
    const page = await browser.newPage();
    await page.setViewport({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true });
    const cdp = await page.createCDPSession();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
    const file = path.join(dataDir, 'trace.json');
    const profileDir = process.env.PAGE_TRACE_PROFILE;
    if (profileDir) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
    }
    await page.tracing.start({
      path: file,
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'],
    });
    await page.goto(`${server.baseUrl}${pagePath}`, { waitUntil: 'networkidle0' });
    // Hydrated: every element of #root carries React's fiber (a Suspense boundary not hydrated yet has none).
    await page.waitForFunction(
      () =>
        [...(document.getElementById('root')?.querySelectorAll('*') ?? [])].every((element) =>
          Object.keys(element).some((key) => key.startsWith('__reactFiber$')),
        ),
      { timeout: 30_000 },
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await page.tracing.stop();
    if (profileDir) {
      const { profile } = await cdp.send('Profiler.stop');
      fs.mkdirSync(profileDir, { recursive: true });
      fs.writeFileSync(
        path.join(profileDir, `${pagePath.replace(/\W+/g, '') || 'home'}.cpuprofile`),
        JSON.stringify(profile),
      );
    }
    const events = (JSON.parse(fs.readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
    const { tasks } = mainThreadTasks(events, { minMs: 3 * cpuRate, origin: server.baseUrl, everyEvent });
    console.log(`\n${pagePath}`);
    for (const task of tasks) {
      console.log(
        `  at ${task.at.toFixed(0)} ms: ${task.ms.toFixed(cpuRate < 4 ? 1 : 0)} ms  [${task.parts.join('; ')}]`,
      );
    }
    // At 4× slower, as Lighthouse's mobile simulation counts it (the trace's own durations when it was recorded so).
    const blocking = blockingTime(tasks, 4 / cpuRate);
    console.log(
      `  blocking time over 50 ms (at 4×${cpuRate === 4 ? ', observed' : `, this trace's times × ${4 / cpuRate}`}): ${blocking.toFixed(0)} ms`,
    );
    await page.close();
  }
} finally {
  await browser.close();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
