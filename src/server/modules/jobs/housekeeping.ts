import { lt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { jobFailures } from '../../db/schema.ts';
import type { JobHandler, JobLogger } from './job-runner.ts';
import { failureMessage } from './job-runner.ts';

/** One housekeeping chore: a name for the logs and the work, e.g. deleting expired sessions. */
export interface HousekeepingTask {
  name: string;
  run(): Promise<void>;
}

/**
 * The housekeeping job: runs every task, each on its own (one failing does not stop the others), then fails the job
 * if any failed, so the failure is counted and shown like any other. Register it with
 * `runner.schedule('housekeeping', '17 * * * *', createHousekeepingJob(tasks, log))`.
 */
export function createHousekeepingJob(tasks: readonly HousekeepingTask[], log: JobLogger): JobHandler {
  return async (job) => {
    const failed: string[] = [];
    for (const task of tasks) {
      if (job.signal.aborted) break;
      try {
        await task.run();
      } catch (error) {
        failed.push(task.name);
        log.warn({ jobId: job.id, task: task.name, error: failureMessage(error) }, 'housekeeping task failed');
      }
    }
    if (failed.length > 0) throw new Error(`housekeeping tasks failed: ${failed.join(', ')}`);
  };
}

/** Housekeeping task: the admin panel shows the last failures, not a history; keep a month of them. */
export function pruneJobFailures(
  db: Database,
  options: { keepDays?: number; now?: () => Date } = {},
): HousekeepingTask {
  return {
    name: 'prune-job-failures',
    async run() {
      const now = options.now?.() ?? new Date();
      const cutoff = new Date(now.getTime() - (options.keepDays ?? 30) * 86_400_000);
      await db.delete(jobFailures).where(lt(jobFailures.failedAt, cutoff));
    },
  };
}
