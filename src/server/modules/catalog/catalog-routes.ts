import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema, idParamsSchema } from '../../../shared/schemas/common.ts';
import { partListQuerySchema, partSchema } from '../../../shared/schemas/parts.ts';
import { CatalogService } from './catalog-service.ts';

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const catalog = new CatalogService(app.db);

  app.get(
    '/api/part',
    {
      schema: {
        tags: ['catalog'],
        summary: 'List parts',
        description:
          'Without parameters: every part, oldest first (the spec). `q` searches name and description, `sort` orders, ' +
          '`limit`/`offset` page. The total matching count is in the `X-Total-Count` header.',
        querystring: partListQuerySchema,
        response: { 200: z.array(partSchema), 400: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const { items, total } = await catalog.list(request.query);
      reply.header('x-total-count', String(total));
      return items;
    },
  );

  app.get(
    '/api/part/:id',
    {
      schema: {
        tags: ['catalog'],
        summary: 'One part',
        params: idParamsSchema,
        response: { 200: partSchema, 404: errorResponseSchema },
      },
    },
    async (request) => catalog.get(request.params.id),
  );
};
