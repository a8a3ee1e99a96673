import type { JobsOverview } from '../../../shared/schemas/jobs.ts';
import type { AppConfig } from '../../config.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import {
  createMailDelivery,
  createMailTransport,
  type MailDelivery,
  mailDeliverySettings,
  mailOutboxStats,
  purgeOldMailTask,
} from '../mail/ports.ts';
import { createHousekeepingJob, type HousekeepingTask, pruneJobFailures } from './housekeeping.ts';
import { createJobRunner, failureMessage, type JobLogger, type JobRunner, type JobSchedule } from './job-runner.ts';

/** A module's own recurring job (e.g. the order expiry), run once across instances like housekeeping. */
export interface ScheduledTask {
  name: string;
  every: JobSchedule;
  run(): Promise<void>;
}

/** Hourly, at a minute no other hourly chore of a typical host likes (ADR 008: cron in UTC, minute resolution). */
const HOUSEKEEPING_CRON = '17 * * * *';

export interface BackgroundJobs {
  readonly enabled: boolean;
  readonly runner: JobRunner;
  /** The mail delivery job; tests may `run()` it to deliver at once on an instance with jobs off. */
  readonly mail: MailDelivery;
  /** After a transaction that enqueued a mail commits: deliver now rather than at the next period (ADR 007). */
  kick(): void;
  /** Defines the scheduled jobs and starts the runner (JOBS_ENABLED=false: does nothing). Call once the database is open. */
  start(): Promise<void>;
  /** Stops taking jobs, waits for those running and for a delivery under way, closes the transport. Before the database closes. */
  stop(): Promise<void>;
  /** GET /api/admin/jobs. */
  overview(): Promise<JobsOverview>;
  /** One housekeeping run now, as the hourly job does it (tests; an operator's script). */
  runHousekeeping(): Promise<void>;
  /** One run of a module's scheduled task now, as its schedule does it (tests; an operator's script). */
  runScheduled(name: string): Promise<void>;
}

/**
 * The shop's background work (ADRs 007 and 008), built once by `createServices`: mail delivery every
 * MAIL_POLL_SECONDS and right after each commit that enqueued a mail, and hourly housekeeping (the accounts module's
 * chores, the mail purge and old job failures). SMTP when SMTP_URL is set, else .eml files under DATA_DIR/mail.
 */
export function createBackgroundJobs(options: {
  database: DatabaseHandle;
  config: Pick<
    AppConfig,
    | 'JOBS_ENABLED'
    | 'SMTP_URL'
    | 'DATA_DIR'
    | 'MAIL_FROM'
    | 'MAIL_MAX_ATTEMPTS'
    | 'MAIL_RETRY_BASE_SECONDS'
    | 'MAIL_POLL_SECONDS'
  >;
  log: JobLogger;
  /** This instance's name across restarts: its mail claims carry it, and its next start gives them back. */
  instanceId?: string;
  housekeeping: readonly HousekeepingTask[];
  /** Read when the runner starts, so modules built after the jobs (they kick mail through them) can add theirs. */
  scheduled?: () => readonly ScheduledTask[];
}): BackgroundJobs {
  const { database, config, log } = options;
  const enabled = config.JOBS_ENABLED === 'true';
  const transport = createMailTransport(config, log);
  const mail = createMailDelivery({
    db: database.db,
    transport,
    settings: mailDeliverySettings(config, options.instanceId),
    log,
  });
  const runner = createJobRunner({ database, log, enabled });
  const housekeeping = createHousekeepingJob(
    [...options.housekeeping, purgeOldMailTask(database.db), pruneJobFailures(database.db)],
    log,
  );
  let started = false;

  return {
    enabled,
    runner,
    mail,
    kick() {
      if (started) mail.kick();
    },
    async start() {
      if (started) return;
      // First, whatever the runner: mail this instance's previous life was sending when it died is due again now,
      // for whichever instance delivers (a lease would otherwise hold it for minutes).
      // Not fatal: without it those mails still go out when their lease ends.
      await mail
        .reclaim()
        .catch((error: unknown) =>
          log.warn({ error: failureMessage(error) }, 'mail leases of this instance not given back'),
        );
      if (!enabled) return;
      await runner.schedule('mail-delivery', { seconds: config.MAIL_POLL_SECONDS }, async () => {
        await mail.run();
      });
      await runner.schedule('housekeeping', HOUSEKEEPING_CRON, housekeeping);
      for (const task of options.scheduled?.() ?? []) {
        await runner.schedule(task.name, task.every, () => task.run());
      }
      await runner.start();
      started = true;
      // Mail committed while this instance was down (or before it started) goes out now, not a period later.
      mail.kick();
    },
    async stop() {
      started = false;
      await runner.stop();
      await mail.close();
      transport.close();
    },
    async runScheduled(name) {
      const task = options.scheduled?.().find((candidate) => candidate.name === name);
      if (!task) throw new Error(`no scheduled task ${name}`);
      await task.run();
    },
    runHousekeeping() {
      return housekeeping({ id: 'manual', name: 'housekeeping', data: {}, signal: new AbortController().signal });
    },
    async overview() {
      const [jobs, outbox] = await Promise.all([runner.stats(), mailOutboxStats(database.db)]);
      return {
        runnerEnabled: enabled,
        queues: jobs.queues.map(({ name, pending, active, failed }) => ({ name, pending, active, failed })),
        lastFailure: jobs.lastFailure ? { ...jobs.lastFailure, at: jobs.lastFailure.at.toISOString() } : null,
        mail: {
          ...outbox.counts,
          lastError: outbox.lastError ? { ...outbox.lastError, at: outbox.lastError.at.toISOString() } : null,
        },
      };
    },
  };
}
