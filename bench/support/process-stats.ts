import fs from 'node:fs';

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these. */
const CLOCK_TICKS = 100;

/**
 * A process's CPU time so far (user + system) in milliseconds, from /proc (Linux; 0 elsewhere). The difference over a
 * run divided by the requests answered is the server's CPU cost of one request, which a shared machine's load moves
 * much less than requests per second.
 */
export function processCpuMillis(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** A process's resident memory in MB (VmRSS of /proc/<pid>/status; NaN elsewhere). */
export function processRssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** The processes `pid` started (its watchdog), from /proc/<pid>/task/<tid>/children (Linux; empty elsewhere). */
export function childPids(pid: number): number[] {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' '))
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number);
  } catch {
    return [];
  }
}
