/**
 * Where a server-rendered page's main-thread time goes while it loads (issue 15, TBT): loads one page of the production
 * build in Debian's Chromium with the CPU slowed 4× (Lighthouse's mobile setting), records a performance trace and
 * prints every main-thread task over 12 ms with what it spent its time on (script by file, style, layout, parsing).
 *
 *   npm run build && node bench/page-trace.ts [/path ...]      # default: / /allparts /part/first
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

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: { data?: { url?: string; functionName?: string } };
}

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
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
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
    await page.waitForSelector('html[data-hydrated="true"]', { timeout: 30_000 });
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
    // The renderer's main thread that ran the most (about:blank has one too).
    const mains = events.filter(
      (e) => e.name === 'thread_name' && (e.args as { name?: string })?.name === 'CrRendererMain',
    );
    const busy = (t: TraceEvent) => events.filter((e) => e.tid === t.tid && e.pid === t.pid && e.ph === 'X').length;
    const main = mains.sort((a, b) => busy(b) - busy(a))[0];
    const onMain = events.filter((e) => main && e.tid === main.tid && e.pid === main.pid && e.ph === 'X');
    const start = Math.min(...onMain.map((e) => e.ts));
    console.log(`\n${pagePath}`);
    let blocking = 0;
    for (const task of onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > 12_000)) {
      const end = task.ts + (task.dur ?? 0);
      const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end);
      const by = new Map<string, number>();
      for (const e of inside) {
        if (
          ![
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
          ].includes(e.name)
        )
          continue;
        const url = e.args?.data?.url ? ` ${e.args.data.url.replace(server.baseUrl, '')}` : '';
        const key = `${e.name}${url}`;
        by.set(key, (by.get(key) ?? 0) + (e.dur ?? 0));
      }
      const top = [...by]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`);
      blocking += Math.max(0, (task.dur ?? 0) / 1000 - 50);
      console.log(
        `  at ${((task.ts - start) / 1000).toFixed(0)} ms: ${((task.dur ?? 0) / 1000).toFixed(0)} ms  [${top.join('; ')}]`,
      );
    }
    console.log(`  blocking time over 50 ms (observed, throttled): ${blocking.toFixed(0)} ms`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
