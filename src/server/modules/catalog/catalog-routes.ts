import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema, idParamsSchema } from '../../../shared/schemas/common.ts';
import { partInputSchema, partListQuerySchema, partPatchSchema, partSchema } from '../../../shared/schemas/parts.ts';
import { currentUser, requireAdmin } from '../../plugins/auth.ts';
import { CatalogService } from './catalog-service.ts';

const adminOnly = {
  security: [{ bearerAuth: [] }],
} as const;

const adminErrors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
} as const;

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

  // Admin checks run onRequest, before the body is parsed or validated: a refused caller learns nothing about it.
  app.post(
    '/api/part',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['catalog'],
        summary: 'Add a part (admin)',
        description: 'The adding admin is taken from the token; a body `email` is accepted for the spec and ignored.',
        ...adminOnly,
        body: partInputSchema,
        response: { 201: partSchema, ...adminErrors },
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
        ...adminOnly,
        params: idParamsSchema,
        body: partPatchSchema,
        response: { 200: partSchema, ...adminErrors, 404: errorResponseSchema },
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
        ...adminOnly,
        params: idParamsSchema,
        response: { 204: z.null().describe('Deleted'), ...adminErrors, 404: errorResponseSchema },
      },
    },
    async (request, reply) => {
      await catalog.remove(request.params.id);
      return reply.status(204).send(null);
    },
  );
};
