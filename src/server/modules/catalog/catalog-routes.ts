import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { uuidParamsSchema } from '../../../shared/schemas/common.ts';
import { brandSchema, categoryNodeSchema, partFacetsSchema } from '../../../shared/schemas/fitment.ts';
import {
  partDetailsQuerySchema,
  partDetailsSchema,
  partFacetsQuerySchema,
  partInputSchema,
  partListPageSchema,
  partListQuerySchema,
  partPatchSchema,
  partSchema,
} from '../../../shared/schemas/parts.ts';
import { partSuggestionsSchema, partSuggestQuerySchema } from '../../../shared/schemas/search.ts';
import { pageLinks } from '../../page-links.ts';
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
          'Without parameters: every part, oldest first (the spec). `q` searches name, description, brand, category, ' +
          'the makes and models a part fits and its part numbers in any spelling ("kmc 520" = "KMC-520"), tolerating ' +
          'typos ("brak pads"); without `sort` a search is ordered by relevance (ADR 012). `sort` orders, `limit`/`offset` page. Filters: ' +
          '`vehicle` marks each part `fit`, `fits=true` keeps parts that fit it (universal included), `category` ' +
          '(with its subcategories), `brand`, `minPrice`/`maxPrice` (dollars), `inStock=true`, `fitment=none`. ' +
          'The total matching count is in the `X-Total-Count` header; a search ranks at most its best 1,000 ' +
          'candidates (ADR 012), and when it has more, `X-Total-Count` is 1,000 and `X-Total-Count-Capped: true` ' +
          'says "at least". An unknown `vehicle` is 404. Keyset paging (docs/api.md, Cursors): with `limit`, ' +
          '`X-Next-Cursor` and `Link: <…>; rel="next"` name the next page (`after=`), `rel="prev"` the previous ' +
          '(`before=`); a malformed cursor or one of another sort is 400.',
        querystring: partListQuerySchema,
        response: { 200: z.array(partSchema), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const page = await catalog.list(request.query, { isAdmin: request.user?.isAdmin === true });
      reply.header('x-total-count', String(page.total));
      if (page.capped) reply.header('x-total-count-capped', 'true');
      pageLinks(reply, request.url, page);
      return page.items;
    },
  );

  app.get(
    '/api/part/facets',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Counts for the parts list filters',
        description:
          'Takes the filters of `GET /api/part`. Each facet counts the parts matching every other filter; `total` ' +
          "is the list's `X-Total-Count`. With `vehicle`, only that vehicle's fitting parts are read.",
        querystring: partFacetsQuerySchema,
        response: { 200: partFacetsSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => catalog.facets(request.query),
  );

  app.get(
    '/api/part/page',
    {
      schema: {
        tags: ['catalog'],
        summary: 'A page of parts with its filter counts',
        description:
          'Takes the query of `GET /api/part` and answers what the parts page shows in one call: `items` (the ' +
          'list `GET /api/part` gives for that query), `total` (its `X-Total-Count`, also sent as that header) and ' +
          '`facets` (what `GET /api/part/facets` gives for the same filters); `capped` as `X-Total-Count-Capped`. ' +
          'With `fits=true` or `q`, the page and ' +
          'the counts come from one read of the matching parts. An unknown `vehicle` is 404.',
        querystring: partListQuerySchema,
        response: { 200: partListPageSchema, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const page = await catalog.listWithFacets(request.query, { isAdmin: request.user?.isAdmin === true });
      reply.header('x-total-count', String(page.total));
      if (page.capped) reply.header('x-total-count-capped', 'true');
      return page;
    },
  );

  app.get(
    '/api/part/suggest',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Search suggestions while typing',
        description:
          'Public, like the list. Up to four parts (the best matches of `q` as the list would rank them, its last ' +
          'word also as a prefix), two categories and two brands its words name. When no part matches, `parts` are ' +
          'the closest names (`closest: true`) and `correction` is the catalogue name most like `q`, if any. With ' +
          '`vehicle`, only parts that fit it (fitted or universal) are offered, each with its `fit`; words naming ' +
          'that vehicle are left out of the search. An unknown vehicle is 404.',
        querystring: partSuggestQuerySchema,
        response: { 200: partSuggestionsSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => catalog.suggest(request.query, { isAdmin: request.user?.isAdmin === true }),
  );

  app.get(
    '/api/part/:id',
    {
      schema: {
        tags: ['catalog'],
        summary: 'One part, with its fitment',
        description:
          '`fitment` is grouped by make and model with year ranges; with `vehicle`, `fit` says whether it fits.',
        params: uuidParamsSchema,
        querystring: partDetailsQuerySchema,
        response: { 200: partDetailsSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) =>
      catalog.get(request.params.id, { isAdmin: request.user?.isAdmin === true }, request.query.vehicle),
  );

  app.get(
    '/api/category',
    {
      schema: {
        tags: ['catalog'],
        summary: 'The category tree',
        response: { 200: z.array(categoryNodeSchema) },
      },
    },
    async () => catalog.categoryTree(),
  );

  app.get(
    '/api/brand',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Brands, by name',
        response: { 200: z.array(brandSchema) },
      },
    },
    async () => catalog.brands(),
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
        response: { 201: partDetailsSchema, ...errorResponses(400, 401, 403, 404) },
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
        response: { 200: partDetailsSchema, ...errorResponses(400, 401, 403, 404) },
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
