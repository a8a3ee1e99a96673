import { Worker } from 'node:worker_threads';

/**
 * Runs in its own thread, so it keeps counting when the main thread cannot: PGlite that hit a full disk spins
 * inside WebAssembly on the main thread, where no timer, no signal handler and no graceful stop can run again
 * (SIGTERM is caught by a handler that never gets to run). The main thread writes a heartbeat; when it is older
 * than the stall limit, or a graceful stop has overrun its hard deadline, this thread writes one log line and
 * ends the process with SIGKILL, the one way out that needs nothing from the main thread.
 */
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const view = new BigInt64Array(workerData.buffer);
const die = (reason) => {
  fs.writeSync(2, JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, msg: 'watchdog: ' + reason + '; stopping the process' }) + '\\n');
  process.kill(process.pid, 'SIGKILL');
};
setInterval(() => {
  const now = Date.now();
  const beat = Number(Atomics.load(view, 0));
  const stopBy = Number(Atomics.load(view, 1));
  if (workerData.stallMs > 0 && now - beat > workerData.stallMs) {
    die('the event loop has not turned for ' + Math.round((now - beat) / 1000) + ' s (a wedged database?)');
  } else if (stopBy > 0 && now > stopBy) {
    die('the graceful stop overran its time cap and the event loop is not answering');
  }
}, 500);
`;

const HEARTBEAT_MS = 250;

export interface Watchdog {
  /** A graceful stop began: whatever happens, the process is gone by `deadlineMs` from now. */
  stopping(deadlineMs: number): void;
}

/** Starts the watchdog thread (WATCHDOG_STALL_SECONDS; 0 only enforces a stop's deadline). */
export function startWatchdog(stallSeconds: number): Watchdog {
  const buffer = new SharedArrayBuffer(16);
  const view = new BigInt64Array(buffer);
  const beat = () => Atomics.store(view, 0, BigInt(Date.now()));
  beat();
  setInterval(beat, HEARTBEAT_MS).unref();
  // No inherited flags: `--input-type=module` would make the source above ESM (no `require`), and an `--import`
  // hook would run again inside the thread.
  const worker = new Worker(WATCHDOG_SOURCE, {
    eval: true,
    execArgv: [],
    workerData: { buffer, stallMs: stallSeconds * 1000 },
  });
  // Never keeps the process alive by itself, never takes it down by failing.
  worker.unref();
  worker.on('error', () => {});
  return {
    stopping(deadlineMs) {
      Atomics.store(view, 1, BigInt(Date.now() + deadlineMs));
    },
  };
}
