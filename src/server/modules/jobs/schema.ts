import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The last failures of background jobs, for the admin panel: job id and message only, never personal data. */
export const jobFailures = pgTable(
  'job_failures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    queue: text('queue').notNull(),
    jobId: text('job_id').notNull(),
    message: text('message').notNull(),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('job_failures_queue_failed_at_idx').on(t.queue, t.failedAt.desc())],
);
