import { TestClock } from 'pg-boss';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testDrivers } from '../../../../test/support/test-database.ts';
import { type DatabaseHandle, openPostgres } from '../../db/client.ts';
import { createHousekeepingJob } from './housekeeping.ts';
import { createJobRunner, type JobRunner } from './job-runner.ts';

function captureLog() {
  const lines: Array<{ level: string; obj: Record<string, unknown>; msg: string }> = [];
  const push = (level: string) => (obj: object, msg: string) =>
    lines.push({ level, obj: obj as Record<string, unknown>, msg });
  return { log: { info: push('info'), warn: push('warn'), error: push('error') }, lines };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testDrivers)('job runner [%s]', (driver) => {
  let database: TestDatabase;
  const runners: JobRunner[] = [];
  const extraHandles: DatabaseHandle[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterEach(async () => {
    // Runners first (they use the connections), then the extra pools.
    for (const runner of runners.splice(0)) await runner.stop();
    for (const handle of extraHandles.splice(0)) await handle.close();
  });
  afterAll(async () => {
    await database?.close();
  });

  function runner(handle: DatabaseHandle = database, log = captureLog().log, enabled = true): JobRunner {
    const created = createJobRunner({
      database: handle,
      log,
      enabled,
      pollingIntervalSeconds: 0.5,
      stopTimeoutMs: 5000,
    });
    runners.push(created);
    return created;
  }

  it('runs a queued job once; stats count pending and failed jobs and show the last failure without personal data', async () => {
    const { log, lines } = captureLog();
    const jobs = runner(database, log);
    const ran: string[] = [];
    await jobs.work<{ n: number }>('echo', async (job) => {
      ran.push(`${job.data.n}`);
    });
    await jobs.work(
      'always-fails',
      async () => {
        throw new Error('could not reach mailbox of ann@example.com');
      },
      { retryLimit: 0 },
    );
    await jobs.start();

    await jobs.enqueue('echo', { n: 1 });
    const failingId = await jobs.enqueue('always-fails');
    await jobs.enqueue('echo', { n: 2 }, { startAfterSeconds: 3600 });

    const stats = await until(
      () => jobs.stats(),
      (s) => s.queues.some((q) => q.name === 'always-fails' && q.failed === 1) && ran.length === 1,
    );
    expect(ran).toEqual(['1']);
    expect(stats.queues).toEqual([
      { name: 'always-fails', pending: 0, active: 0, failed: 1 },
      { name: 'echo', pending: 1, active: 0, failed: 0 },
    ]);
    expect(stats.lastFailure).toMatchObject({
      queue: 'always-fails',
      jobId: failingId,
      message: 'could not reach mailbox of [address]',
    });
    expect(stats.lastFailure?.at).toBeInstanceOf(Date);
    const failure = lines.find((line) => line.msg === 'job failed');
    expect(failure).toMatchObject({ level: 'error', obj: { queue: 'always-fails', jobId: failingId } });
    expect(JSON.stringify(lines)).not.toContain('ann@example.com');
  });

  it('retries a failing job with back-off until it succeeds', { timeout: 40_000 }, async () => {
    const jobs = runner();
    let calls = 0;
    await jobs.work(
      'flaky',
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('temporary');
      },
      { retryLimit: 2, retryDelaySeconds: 1 },
    );
    await jobs.start();
    await jobs.enqueue('flaky');
    // pg-boss backs off with jitter from retryDelaySeconds and polls every 0.5 s here: seconds on a quiet machine,
    // more beside a full test run (8 s was once not enough), so the bound is generous; it only ends a hung test.
    await until(
      async () => calls,
      (n) => n === 2,
      20_000,
    );
    // The second call has run; pg-boss marks the job complete just after the handler returns.
    const flaky = await until(
      async () => (await jobs.stats()).queues.find((q) => q.name === 'flaky'),
      (queue) => queue?.active === 0,
      20_000,
    );
    expect(flaky).toEqual({ name: 'flaky', pending: 0, active: 0, failed: 0 });
  });

  it('two runners (two instances) run a periodic job once per period', async () => {
    // On PostgreSQL each runner has a pool of its own, as two servers would; PGlite has one connection to share.
    const second = driver === 'postgres' && database.url ? openPostgres(database.url, 3) : database;
    if (second !== database) extraHandles.push(second);
    const runs: Array<{ instance: string; jobId: string }> = [];
    const a = runner(database);
    const b = runner(second);
    await a.schedule('tick', { seconds: 1 }, async (job) => {
      runs.push({ instance: 'a', jobId: job.id });
    });
    await b.schedule('tick', { seconds: 1 }, async (job) => {
      runs.push({ instance: 'b', jobId: job.id });
    });
    const started = Date.now();
    await Promise.all([a.start(), b.start()]);
    await sleep(3500);
    await Promise.all([a.stop(), b.stop()]);
    const seconds = (Date.now() - started) / 1000;

    // Both instances proposed a run twice a second (about 4 proposals per second); one per second went through.
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.length).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    expect(new Set(runs.map((run) => run.jobId)).size).toBe(runs.length);
    const stats = await a.stats();
    expect(stats.queues.find((q) => q.name === 'tick')?.failed).toBe(0);
  });

  it('stop() lets a running job finish and takes no new ones', async () => {
    const jobs = runner();
    let finished = 0;
    let started = 0;
    await jobs.work('slow', async () => {
      started += 1;
      await sleep(400);
      finished += 1;
    });
    await jobs.start();
    await jobs.enqueue('slow');
    await until(
      async () => started,
      (n) => n === 1,
    );
    await jobs.stop();
    expect(finished).toBe(1);
  });

  it('an instance with jobs disabled enqueues but runs nothing', async () => {
    const quiet = runner(database, captureLog().log, false);
    let ran = 0;
    await quiet.work('not-here', async () => {
      ran += 1;
    });
    await quiet.schedule('not-here-either', { seconds: 1 }, async () => {
      ran += 1;
    });
    await quiet.start();
    const id = await quiet.enqueue('not-here');
    expect(id).toEqual(expect.any(String));
    await sleep(1200);
    expect(ran).toBe(0);
    expect((await quiet.stats()).queues.find((q) => q.name === 'not-here')?.pending).toBe(1);
  });

  it('refuses bad names, bad periods, bad cron expressions and a second definition', async () => {
    const jobs = runner();
    await expect(jobs.schedule('Bad Name', { seconds: 5 }, async () => {})).rejects.toThrow('kebab-case');
    await expect(jobs.schedule('half', { seconds: 0.5 }, async () => {})).rejects.toThrow('whole number');
    await jobs.schedule('hourly', '17 * * * *', async () => {});
    await expect(jobs.schedule('hourly', '17 * * * *', async () => {})).rejects.toThrow('already defined');
    await jobs.start();
    await expect(jobs.schedule('broken-cron', 'every tuesday', async () => {})).rejects.toThrow();
  });

  it('housekeeping runs every task and fails the job (counted, logged) if one failed', async () => {
    const { log, lines } = captureLog();
    const done: string[] = [];
    const job = createHousekeepingJob(
      [
        { name: 'first', run: async () => void done.push('first') },
        {
          name: 'broken',
          run: async () => {
            throw new Error('disk full');
          },
        },
        { name: 'last', run: async () => void done.push('last') },
      ],
      log,
    );
    await expect(
      job({ id: 'job-1', name: 'housekeeping', data: {}, signal: new AbortController().signal }),
    ).rejects.toThrow('housekeeping tasks failed: broken');
    expect(done).toEqual(['first', 'last']);
    expect(lines).toEqual([
      { level: 'warn', obj: { jobId: 'job-1', task: 'broken', error: 'disk full' }, msg: 'housekeeping task failed' },
    ]);
  });
});

// pg-boss's TestClock moves time in JavaScript and in the database (its job_now()) together.
describe.each(testDrivers)('job runner cron schedule [%s, test clock]', (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('runs a cron job once per occurrence', async () => {
    // Not in a minute the schedule names: a cron pass that happens to run at start (under load it once did, and
    // sent 10:00's occurrence) has nothing to send before the jumps below.
    const clock = new TestClock(new Date('2030-01-01T10:01:30Z'));
    const { log, lines } = captureLog();
    const jobs = createJobRunner({ database, log, clock, pollingIntervalSeconds: 0.5 });
    const runs: number[] = [];
    await jobs.schedule('hourly', '0 * * * *', async () => {
      runs.push(clock.now());
    });
    try {
      await jobs.start();
      // Jumps rather than ticks: ticking through two hours would fire every poll timer on the way. pg-boss's timers
      // (cron pass, worker polls) fire only as the test clock ticks, so waiting for a run means ticking.
      const jumpThrough = async (moments: string[]) => {
        for (const moment of moments) {
          await clock.setTime(new Date(`2030-01-01T${moment}Z`));
          await clock.tick(1000);
        }
      };
      const ticksUntilRuns = (count: number) =>
        until(
          async () => {
            await clock.tick(500);
            return runs.length;
          },
          (n) => n >= count,
        );
      await jumpThrough(['10:59:30', '11:00:00', '11:00:30', '11:01:00']);
      await ticksUntilRuns(1);
      await jumpThrough(['11:30:00', '11:59:30', '12:00:00', '12:00:30', '12:01:00']);
      await ticksUntilRuns(2);
      // Later polls find nothing more to run for these two occurrences.
      await clock.tick(5000);
    } finally {
      await jobs.stop();
    }
    expect(runs.map((at) => new Date(at).toISOString().slice(11, 13))).toEqual(['11', '12']);
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
  });
});
