import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** `redline-<label>-<pid of the runner>-<random>`: the pid tells a later run whether the owner is still alive. */
const RUN_DIR = /^redline-(?:test|e2e)-(\d+)-[A-Za-z0-9]{6}$/;
/** A run directory is only swept when its owner is gone AND it is this old (the pid may be another machine's). */
const STALE_AFTER_MS = 60 * 60 * 1000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes run directories of earlier runs that were killed before they could clean up. */
export function sweepStaleRunDirs(base = os.tmpdir()): void {
  for (const name of fs.readdirSync(base)) {
    const match = RUN_DIR.exec(name);
    if (!match || isAlive(Number(match[1]))) continue;
    const dir = path.join(base, name);
    try {
      if (Date.now() - fs.statSync(dir).mtimeMs < STALE_AFTER_MS) continue;
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // Another run is sweeping it at the same moment, or it is not ours to remove: leave it.
    }
  }
}

/**
 * One directory for everything a test run writes to the temporary directory: it becomes TMPDIR for this process
 * and every process started after this call (test workers, servers, scripts, browsers), so whatever a test
 * forgets to remove goes with the directory. Removed by `remove()` and, as a last resort, when this process exits
 * (Vitest and Playwright exit on Ctrl+C and SIGTERM without running their teardown).
 */
export function createRunTempDir(label: 'test' | 'e2e'): { dir: string; remove(): void } {
  const base = os.tmpdir();
  sweepStaleRunDirs(base);
  const dir = fs.mkdtempSync(path.join(base, `redline-${label}-${process.pid}-`));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    process.off('exit', remove);
    if (process.env.TMPDIR === dir) {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
    // Servers told to stop may still be closing their files: a few retries instead of a spurious ENOTEMPTY.
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    reapLater(dir);
  };
  process.on('exit', remove);
  return { dir, remove };
}

/**
 * When a runner is stopped by a signal, its workers and their servers can outlive it by a second or two and write
 * into the directory again (a data directory's `mkdir -p` recreates the path). A small detached process keeps
 * removing it until it has stayed gone for a few seconds, then exits (within a minute at most).
 */
const REAPER = `
const fs = require('node:fs');
const dir = process.argv[1];
let absent = 0;
let ticks = 0;
const timer = setInterval(() => {
  ticks++;
  if (fs.existsSync(dir)) {
    absent = 0;
    try { fs.rmSync(dir, { recursive: true, force: true }); } catch {}
  } else absent++;
  if (absent >= 10 || ticks >= 120) clearInterval(timer);
}, 500);
`;

function reapLater(dir: string): void {
  try {
    spawn(process.execPath, ['-e', REAPER, dir], { detached: true, stdio: 'ignore', env: {} }).unref();
  } catch {
    // Nothing more to do: the next run sweeps what is left (sweepStaleRunDirs).
  }
}
