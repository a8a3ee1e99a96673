import { queryOptions } from '@tanstack/react-query';
import { jobsOverviewSchema } from '../../../shared/schemas/jobs.ts';
import { api } from '../../lib/api-client.ts';
import { queryRoots } from '../../lib/query-keys.ts';

export const jobsKeys = { overview: [...queryRoots.jobs, 'overview'] as const };

/** The admin's view of the background jobs (GET /api/admin/jobs): counts per queue, the mail outbox, the last failure. */
export const jobsOverviewQuery = queryOptions({
  queryKey: jobsKeys.overview,
  queryFn: ({ signal }) => api('/admin/jobs', { schema: jobsOverviewSchema, signal }),
  // A panel someone watches: fresh on every visit, and never older than a minute while it is open.
  staleTime: 0,
  refetchInterval: 60_000,
});
