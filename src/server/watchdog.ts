import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';

/*
 * The watchdog keeps counting when the main thread cannot: PGlite that hit a full disk spins inside WebAssembly on
 * the main thread, where no timer, no signal handler and no graceful stop can run again (SIGTERM is caught by a
 * handler that never gets to run). The main thread sends a heartbeat; when it is older than the stall limit, or a
 * graceful stop has overrun its hard deadline, the watchdog writes one log line and ends the process with SIGKILL,
 * the one way out that needs nothing from the main thread.
 *
 * It is a bash process reading heartbeats from a pipe (a few MB), or, where there is no bash, a thread of this process
 * (a second V8 isolate and Node environment: a large share of the server's memory at rest). The process
 * ends by itself when the server does: its pipe closes.
 */

const HEARTBEAT_MS = 250;

/**
 * $1 stall limit in seconds (0: none), $2 the server's pid. A line per heartbeat; `stop <ms>` sets the deadline.
 * `read -t` times out (status > 128) when no line came in time; status 1 is the pipe's end (the server is gone).
 * No command substitution: each would fork. The signals a stop sends to the whole process group (Ctrl+C, systemd's
 * SIGTERM to the service) are ignored: the watchdog must outlive the start of a stop to enforce its deadline.
 */
const WATCHDOG_SCRIPT = `
trap '' INT TERM HUP
stall_ms=$(( $1 * 1000 )); pid=$2; deadline=0
die() {
  printf '{"level":60,"time":%s,"pid":%s,"msg":"watchdog: %s; stopping the process"}\n' "$now" "$pid" "$1" >&2
  kill -KILL "$pid"
  exit 0
}
while :; do
  t=\${EPOCHREALTIME/[.,]/}; now=$(( t / 1000 )); wait_ms=$stall_ms
  if (( deadline > 0 )); then
    left=$(( deadline - now ))
    (( left <= 0 )) && die 'the graceful stop overran its time cap and the event loop is not answering'
    (( wait_ms == 0 || left < wait_ms )) && wait_ms=$left
  fi
  if (( wait_ms > 0 )); then
    printf -v timeout '%d.%03d' $(( wait_ms / 1000 )) $(( wait_ms % 1000 ))
    read -r -t "$timeout" line
  else
    read -r line
  fi
  status=$?
  t=\${EPOCHREALTIME/[.,]/}; now=$(( t / 1000 ))
  if (( status == 0 )); then
    [[ $line == 'stop '* ]] && deadline=$(( now + \${line#stop } ))
  elif (( status > 128 )); then
    (( deadline > 0 && now >= deadline )) && die 'the graceful stop overran its time cap and the event loop is not answering'
    die "the event loop has not turned for $(( stall_ms / 1000 )) s (a wedged database?)"
  else
    exit 0
  fi
done
`;

const BASH = ['/bin/bash', '/usr/bin/bash'].find((file) => fs.existsSync(file));

/** The thread the watchdog runs in where there is no bash. */
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

export interface Watchdog {
  /** A graceful stop began: whatever happens, the process is gone by `deadlineMs` from now. */
  stopping(deadlineMs: number): void;
}

/**
 * Starts the watchdog (WATCHDOG_STALL_SECONDS; 0 only enforces a stop's deadline): a process where bash is found, else
 * a thread (`kind` chooses, for the tests of both).
 */
export function startWatchdog(
  stallSeconds: number,
  kind: 'process' | 'thread' = BASH ? 'process' : 'thread',
): Watchdog {
  return kind === 'process' && BASH ? watchdogProcess(BASH, stallSeconds) : watchdogThread(stallSeconds);
}

function watchdogProcess(bash: string, stallSeconds: number): Watchdog {
  const child = spawn(bash, ['-c', WATCHDOG_SCRIPT, 'redline-watchdog', String(stallSeconds), String(process.pid)], {
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  const pipe = child.stdin;
  // Never keeps the process alive by itself, never takes it down by failing (a watchdog killed from outside: EPIPE).
  child.unref();
  child.on('error', () => {});
  pipe.on('error', () => {});
  (pipe as unknown as { unref(): void }).unref();
  const send = (line: string) => {
    if (pipe.writable) pipe.write(`${line}\n`);
  };
  send('beat');
  setInterval(() => send('beat'), HEARTBEAT_MS).unref();
  return {
    stopping(deadlineMs) {
      send(`stop ${Math.max(0, Math.round(deadlineMs))}`);
    },
  };
}

function watchdogThread(stallSeconds: number): Watchdog {
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
