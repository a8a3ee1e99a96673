import type { PGlite } from '@electric-sql/pglite';
import { desc, sql } from 'drizzle-orm';
import { type Clock, type ConstructorOptions, fromPglite, PgBoss } from 'pg-boss';
import type { DatabaseHandle } from '../../db/client.ts';
import { jobFailures } from '../../db/schema.ts';

export interface JobLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobContext<T> {
  id: string;
  name: string;
  data: T;
  /** Aborted when the job expires or the runner stops: long handlers should stop early. */
  signal: AbortSignal;
}

export type JobHandler<T = Record<string, unknown>> = (job: JobContext<T>) => Promise<void>;

/** A cron expression (UTC, minute resolution), or a period in seconds. */
export type JobSchedule = string | { seconds: number };

export interface WorkOptions {
  /** Retries after the first failure, with exponential back-off from `retryDelaySeconds`. Default 3. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** How long one run may take before it counts as failed. Default 15 minutes. */
  expireInSeconds?: number;
}

export interface QueueStats {
  name: string;
  /** Waiting to run, including retries not yet due. */
  pending: number;
  active: number;
  /** Given up after their retries, kept for pg-boss's retention (7 days by default). */
  failed: number;
}

export interface JobFailure {
  queue: string;
  jobId: string;
  message: string;
  at: Date;
}

export interface JobStats {
  queues: QueueStats[];
  lastFailure: JobFailure | null;
}

export interface JobRunner {
  /** Installs or upgrades pg-boss's schema (own schema `pgboss`, own migrations), then starts every job defined. */
  start(): Promise<void>;
  /** Stops taking jobs and waits (up to `stopTimeoutMs`) for those running; call before closing the database. */
  stop(): Promise<void>;
  /** A job that runs once per period across all instances, on whichever instance picks it up. */
  schedule<T = Record<string, unknown>>(name: string, when: JobSchedule, handler: JobHandler<T>): Promise<void>;
  /** A queue whose jobs (from `enqueue`) run once each, retried on failure. */
  work<T = Record<string, unknown>>(name: string, handler: JobHandler<T>, options?: WorkOptions): Promise<void>;
  /** Adds a job to a queue defined with `work` (here or on another instance); returns its id. */
  enqueue(name: string, data?: object, options?: { startAfterSeconds?: number }): Promise<string | null>;
  /** Counts per queue and the last failure, for the admin panel. */
  stats(): Promise<JobStats>;
}

export interface JobRunnerOptions {
  database: DatabaseHandle;
  log: JobLogger;
  /** JOBS_ENABLED=false: this instance enqueues and schedules but runs no jobs and no maintenance. */
  enabled?: boolean;
  /** How often an idle worker asks for work. Default 2 s (pg-boss's minimum is 0.5 s). */
  pollingIntervalSeconds?: number;
  stopTimeoutMs?: number;
  /** PostgreSQL only: defaults to the app pool's own connection string. */
  connectionString?: string;
  /** pg-boss's clock: only tests replace it. */
  clock?: Clock;
  schema?: string;
}

interface Definition {
  name: string;
  handler: JobHandler<unknown>;
  when?: JobSchedule;
  options?: WorkOptions;
}

const NAME_PATTERN = /^[a-z][a-z0-9-]{0,47}$/;
const FAILURE_MESSAGE_LENGTH = 500;

/**
 * The shop's job runner: pg-boss on PostgreSQL and, through its PGlite adapter, on the embedded database too (ADR
 * 008). Each job runs once across instances: queued jobs are claimed with SKIP LOCKED; a periodic job is one row
 * per period, which pg-boss's unique throttle slot lets only one instance create.
 */
export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { database, log } = options;
  const enabled = options.enabled ?? true;
  const schema = options.schema ?? 'pgboss';
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error('The job schema must be a plain lower-case name');
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
  const boss = new PgBoss({
    ...bossConnection(database, options.connectionString),
    application_name: 'redline-jobs',
    schema,
    supervise: enabled,
    schedule: enabled,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  // pg-boss reports trouble as events; unhandled, an 'error' event would crash the process.
  boss.on('error', (error) => log.error({ error: error.message }, 'job runner error'));
  boss.on('warning', (warning) => log.warn({ warning: warning.message }, 'job runner warning'));

  const definitions = new Map<string, Definition>();
  const tickers: NodeJS.Timeout[] = [];
  let state: 'new' | 'starting' | 'started' | 'stopped' = 'new';

  const wrap =
    (name: string, handler: JobHandler<unknown>) =>
    async ([job]: Array<{ id: string; name: string; data: unknown; signal: AbortSignal }>) => {
      if (!job) return;
      try {
        await handler({ id: job.id, name: job.name, data: job.data, signal: job.signal });
      } catch (error) {
        const message = failureMessage(error);
        // The job id and the queue lead to the job; the message is stripped of addresses (no personal data in logs).
        log.error({ queue: name, jobId: job.id, error: message }, 'job failed');
        await database.db
          .insert(jobFailures)
          .values({ queue: name, jobId: job.id, message })
          .catch((recordError: unknown) =>
            log.warn({ queue: name, jobId: job.id, error: failureMessage(recordError) }, 'job failure not recorded'),
          );
        throw error;
      }
    };

  async function apply(definition: Definition): Promise<void> {
    const { name, when } = definition;
    if (when === undefined) {
      const retryLimit = definition.options?.retryLimit ?? 3;
      await boss.createQueue(name, {
        retryLimit,
        retryDelay: definition.options?.retryDelaySeconds ?? 10,
        retryBackoff: true,
        expireInSeconds: definition.options?.expireInSeconds ?? 900,
      });
    } else {
      // A missed period is not made up by retries: the next period runs anyway.
      const period = typeof when === 'string' ? 60 : when.seconds;
      await boss.createQueue(name, { retryLimit: 0, expireInSeconds: Math.max(300, Math.min(900, period * 10)) });
      if (typeof when === 'string') await boss.schedule(name, when, {}, { tz: 'UTC' });
    }
    if (!enabled) return;
    const period = typeof when === 'object' ? when.seconds : undefined;
    // A short period needs a worker that asks at least twice per period, or periods would merge.
    const polling = period ? Math.max(0.5, Math.min(pollingIntervalSeconds, period / 2)) : pollingIntervalSeconds;
    await boss.work(name, { pollingIntervalSeconds: polling }, wrap(name, definition.handler));
    if (period) {
      // Every instance proposes a run twice per period; the throttle slot admits one per period across all of them.
      const propose = () => {
        boss
          .sendThrottled(name, {}, null, period)
          .catch((error: unknown) => log.warn({ queue: name, error: failureMessage(error) }, 'job not proposed'));
      };
      propose();
      const ticker = setInterval(propose, (period * 1000) / 2);
      ticker.unref();
      tickers.push(ticker);
    }
  }

  async function define(definition: Definition): Promise<void> {
    if (!NAME_PATTERN.test(definition.name)) throw new Error(`Job name "${definition.name}" must be kebab-case`);
    if (definitions.has(definition.name)) throw new Error(`Job "${definition.name}" is already defined`);
    const when = definition.when;
    if (typeof when === 'object' && !(Number.isInteger(when.seconds) && when.seconds >= 1)) {
      throw new Error('A job period must be a whole number of seconds, at least 1');
    }
    definitions.set(definition.name, definition);
    if (state === 'started') await apply(definition);
  }

  return {
    async start() {
      if (state !== 'new') throw new Error('The job runner starts once');
      state = 'starting';
      await boss.start();
      for (const definition of definitions.values()) await apply(definition);
      state = 'started';
    },

    async stop() {
      if (state === 'stopped') return;
      const wasRunning = state !== 'new';
      state = 'stopped';
      for (const ticker of tickers) clearInterval(ticker);
      if (wasRunning) await boss.stop({ graceful: true, timeout: options.stopTimeoutMs ?? 10_000 });
    },

    schedule(name, when, handler) {
      return define({ name, when, handler: handler as JobHandler<unknown> });
    },

    work(name, handler, workOptions) {
      return define({
        name,
        handler: handler as JobHandler<unknown>,
        ...(workOptions ? { options: workOptions } : {}),
      });
    },

    async enqueue(name, data = {}, enqueueOptions = {}) {
      return boss.send(name, data, {
        ...(enqueueOptions.startAfterSeconds ? { startAfter: enqueueOptions.startAfterSeconds } : {}),
      });
    },

    async stats() {
      // Read from pg-boss's job table rather than getQueues(): those counts are a cache up to a minute old even
      // when forced, and an admin looking at a failure wants it counted now. Read-only; internal queues skipped.
      // An instance that never started pg-boss (JOBS_ENABLED=false on a fresh database) has no job table yet.
      const installed = await database.db.execute(sql.raw(`SELECT to_regclass('${schema}.job') IS NOT NULL AS ok`));
      const hasTable = Boolean((installed as unknown as { rows: Array<{ ok: boolean }> }).rows[0]?.ok);
      const result = hasTable
        ? await database.db.execute(
            sql.raw(
              `SELECT name, state::text AS state, count(*)::int AS n FROM ${schema}.job
               WHERE name NOT LIKE '\\_\\_pgboss%' GROUP BY name, state`,
            ),
          )
        : { rows: [] };
      const rows = (result as unknown as { rows: Array<{ name: string; state: string; n: number }> }).rows;
      const queues = new Map<string, QueueStats>();
      for (const name of definitions.keys()) queues.set(name, { name, pending: 0, active: 0, failed: 0 });
      for (const row of rows) {
        const queue = queues.get(row.name) ?? { name: row.name, pending: 0, active: 0, failed: 0 };
        if (row.state === 'created' || row.state === 'retry') queue.pending += Number(row.n);
        else if (row.state === 'active') queue.active += Number(row.n);
        else if (row.state === 'failed') queue.failed += Number(row.n);
        queues.set(row.name, queue);
      }
      const [last] = await database.db.select().from(jobFailures).orderBy(desc(jobFailures.failedAt)).limit(1);
      return {
        queues: [...queues.values()].sort((a, b) => a.name.localeCompare(b.name)),
        lastFailure: last ? { queue: last.queue, jobId: last.jobId, message: last.message, at: last.failedAt } : null,
      };
    },
  };
}

/**
 * On PGlite, pg-boss shares the app's one connection through pg-boss's own adapter: its statements queue behind the
 * app's transactions like any other query. On PostgreSQL it gets a small pool of its own (3 connections): pg-boss
 * then manages its connections as designed (a failed statement's connection is dropped, a stop aborts long
 * maintenance, a test clock can set up each session) and a burst of jobs never starves requests of connections.
 */
function bossConnection(handle: DatabaseHandle, connectionString: string | undefined): ConstructorOptions {
  const client = (handle.db as unknown as { $client: unknown }).$client;
  if (handle.driver === 'pglite') return { db: fromPglite(client as PGlite), backend: 'pglite' };
  const url = connectionString ?? (client as { options?: { connectionString?: string } }).options?.connectionString;
  if (!url) throw new Error('The job runner needs the PostgreSQL connection string');
  return { connectionString: url, max: 3, backend: 'postgres' };
}

/** A failure's message for logs and the admin panel: one line, bounded, without email addresses. */
export function failureMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, '[address]')
    .replace(/\s+/g, ' ')
    .slice(0, FAILURE_MESSAGE_LENGTH);
}
