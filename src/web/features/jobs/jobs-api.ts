import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../lib/api-client.ts';
import { queryRoots } from '../../lib/query-keys.ts';

// PROVISIONAL: the shape the accounts contract describes for GET /api/admin/jobs, until the server's shared schema
// lands in src/shared/schemas; then this is replaced by an import of it.
const timestamp = z.union([z.string(), z.date()]).transform((value) => new Date(value));
export const adminJobsSchema = z.object({
  queues: z.array(z.object({ name: z.string(), pending: z.number(), active: z.number(), failed: z.number() })),
  lastFailure: z.object({ queue: z.string(), jobId: z.string(), message: z.string(), at: timestamp }).nullable(),
  mail: z.object({
    counts: z.object({ pending: z.number(), sending: z.number(), sent: z.number(), failed: z.number() }),
    lastError: z.object({ id: z.string(), kind: z.string(), message: z.string(), at: timestamp }).nullable(),
  }),
});
export type AdminJobs = z.output<typeof adminJobsSchema>;

export const jobsKeys = { overview: [...queryRoots.jobs, 'overview'] as const };

/** The admin's view of the background jobs: counts per queue, the mail outbox, the last failure. */
export const jobsOverviewQuery = queryOptions({
  queryKey: jobsKeys.overview,
  queryFn: ({ signal }) => api('/admin/jobs', { schema: adminJobsSchema, signal }),
  // A panel someone watches: fresh on every visit, never older than a minute while open.
  staleTime: 0,
  refetchInterval: 60_000,
});
