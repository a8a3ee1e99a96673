import { z } from 'zod';

/** One background job queue as the admin panel shows it (GET /api/admin/jobs). */
export const jobQueueStatsSchema = z.object({
  name: z.string(),
  /** Waiting to run, retries not yet due included. */
  pending: z.number().int().min(0),
  active: z.number().int().min(0),
  /** Given up after their retries (kept 7 days). */
  failed: z.number().int().min(0),
});

/** The latest failure of any job: its queue, its id (the logs name it too) and a message without personal data. */
export const jobFailureSchema = z.object({
  queue: z.string(),
  jobId: z.string(),
  message: z.string(),
  at: z.string().describe('ISO time'),
});

/** The mail outbox: how many mails wait, are being sent, went out or were given up, and the last delivery error. */
export const mailOutboxStatsSchema = z.object({
  pending: z.number().int().min(0),
  sending: z.number().int().min(0),
  sent: z.number().int().min(0),
  failed: z.number().int().min(0),
  lastError: z
    .object({ id: z.string(), kind: z.string(), message: z.string(), at: z.string().describe('ISO time') })
    .nullable(),
});

/** GET /api/admin/jobs (admin): the jobs panel. */
export const jobsOverviewSchema = z.object({
  /** False on an instance started with JOBS_ENABLED=false: the counts still come from the shared database. */
  runnerEnabled: z.boolean(),
  queues: z.array(jobQueueStatsSchema),
  lastFailure: jobFailureSchema.nullable(),
  mail: mailOutboxStatsSchema,
});
export type JobsOverview = z.infer<typeof jobsOverviewSchema>;
