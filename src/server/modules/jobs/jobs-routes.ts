import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { jobsOverviewSchema } from '../../../shared/schemas/jobs.ts';
import { requireAdmin } from '../../plugins/auth.ts';
import { bearerAuth, errorResponses } from '../../route-schemas.ts';
import type { BackgroundJobs } from './background-jobs.ts';

/** The admin's view of background work: the jobs panel of the dashboard. */
export const jobsRoutes: FastifyPluginAsyncZod<{ jobs: BackgroundJobs }> = async (app, { jobs }) => {
  app.get(
    '/api/admin/jobs',
    {
      schema: {
        tags: ['jobs'],
        summary: 'Background jobs and the mail outbox (admin)',
        description:
          'Per queue: pending, active and failed jobs; the last job failure (queue, job id, message, time); the mail ' +
          'outbox counts per status and its last delivery error. Messages carry no email addresses.',
        security: bearerAuth,
        response: { 200: jobsOverviewSchema, ...errorResponses(401, 403) },
      },
      onRequest: requireAdmin,
    },
    async () => jobs.overview(),
  );
};
