import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { uuidParamsSchema } from '../../../shared/schemas/common.ts';
import { partInputSchema, partListQuerySchema, partPatchSchema, partSchema } from '../../../shared/schemas/parts.ts';
import { currentUser, requireAdmin } from '../../plugins/auth.ts';
import { bearerAuth, errorResponses } from '../../route-schemas.ts';
import type { CatalogService } from './catalog-service.ts';

export const catalogRoutes: FastifyPluginAsyncZod<{ catalog: CatalogService }> = async (app, { catalog }) => {
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
        response: { 200: z.array(partSchema), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { items, total } = await catalog.list(request.query, { isAdmin: request.user?.isAdmin === true });
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
        params: uuidParamsSchema,
        response: { 200: partSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => catalog.get(request.params.id, { isAdmin: request.user?.isAdmin === true }),
  );

  app.post(
    '/api/part',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['catalog'],
        summary: 'Add a part (admin)',
        description: 'The adding admin is taken from the token; a body `email` is accepted for the spec and ignored.',
        security: bearerAuth,
        body: partInputSchema,
        response: { 201: partSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const part = await catalog.create(request.body, currentUser(request).email);
      return reply.status(201).send(part);
    },
  );

  app.patch(
    '/api/part/:id',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['catalog'],
        summary: 'Edit a part (admin)',
        description: 'Any subset of the fields, under the same rules as adding; omitted fields keep their values.',
        security: bearerAuth,
        params: uuidParamsSchema,
        body: partPatchSchema,
        response: { 200: partSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => catalog.update(request.params.id, request.body),
  );

  app.delete(
    '/api/part/:id',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['catalog'],
        summary: 'Delete a part (admin)',
        description: 'Existing orders keep their copy of the part name and unit price.',
        security: bearerAuth,
        params: uuidParamsSchema,
        response: { 204: z.null().describe('Deleted'), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await catalog.remove(request.params.id);
      return reply.status(204).send(null);
    },
  );
};
