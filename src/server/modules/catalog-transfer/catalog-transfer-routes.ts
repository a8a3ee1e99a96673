import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CATALOG_IMPORT_MAX_BYTES,
  catalogImportHistoryQuerySchema,
  catalogImportHistorySchema,
  catalogImportQuerySchema,
  catalogImportSchema,
  orderExportQuerySchema,
} from '../../../shared/schemas/catalog-transfer.ts';
import { uuidParamsSchema } from '../../../shared/schemas/common.ts';
import { InvalidError } from '../../errors.ts';
import { currentUser, requireAdmin } from '../../plugins/auth.ts';
import { bearerAuth, errorResponses } from '../../route-schemas.ts';
import type { CatalogExportService } from './catalog-export-service.ts';
import type { CatalogImportService } from './catalog-import-service.ts';
import { PayloadTooLargeError } from './upload-spool.ts';

/** The CSV body of an import, handed over unread (the service streams it); bodies are never parsed whole here. */
const csvBodies = new WeakMap<FastifyRequest, Readable>();

const csvHeaders = (name: string) => ({
  'content-type': 'text/csv; charset=utf-8',
  'content-disposition': `attachment; filename="${name}"`,
});

/** A streamed file: Fastify pipes a stream as it is, so this only names it in the OpenAPI document. */
const csvFile = z.unknown().describe('The CSV file (text/csv; charset=utf-8), streamed');

const stamp = () => new Date().toISOString().slice(0, 10);

/** Admin import and export of the catalogue as CSV (ADR 014). */
export const catalogTransferRoutes: FastifyPluginAsyncZod<{
  imports: CatalogImportService;
  exports: CatalogExportService;
  maxBytes?: number;
}> = async (app, { imports, exports, maxBytes = CATALOG_IMPORT_MAX_BYTES }) => {
  // The import takes CSV and nothing else (another type is 415, never parsed), in a scope of its own so the other
  // routes keep the app's JSON parser. A declared length past the cap is refused before a byte is read; an
  // undeclared (chunked) one is counted as it streams and cut off at the cap.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('text/csv', (request, payload, done) => {
      const declared = Number(request.headers['content-length'] ?? 0);
      if (declared > maxBytes) {
        done(new PayloadTooLargeError(maxBytes), undefined);
        return;
      }
      csvBodies.set(request, payload as Readable);
      done(null, undefined);
    });

    scope.post(
      '/api/admin/catalog/import',
      {
        onRequest: requireAdmin,
        schema: {
          tags: ['catalog-transfer'],
          summary: 'Import products from CSV (admin)',
          description:
            'The body is the CSV file itself (`Content-Type: text/csv`, UTF-8, at most 50 MB). Columns by header name: ' +
            '`mpn`, `name`, `price`, `stock`, `image_url` (required), `brand`, `oem_numbers` (`|`-separated), ' +
            '`category` (slug or name), `minimum_order`, `description`, `universal`, `fitment` ' +
            '(`make|model|years|variant` entries separated by `;`). Refused at once, changing nothing: over 50 MB ' +
            '(413), not UTF-8, not CSV (400, with the line), a bad header. Otherwise 202: the import runs in the ' +
            'background; each bad row is reported with its line and column and skipped; rows upsert by part number ' +
            '(MPN in any spelling). `dryRun=true` checks and reports only.',
          security: bearerAuth,
          querystring: catalogImportQuerySchema,
          response: { 202: catalogImportSchema, ...errorResponses(400, 401, 403, 413, 415) },
        },
      },
      async (request, reply) => {
        const body = csvBodies.get(request);
        if (!body) throw new InvalidError('Send the CSV file as the body, with Content-Type: text/csv.');
        const started = await imports.start(body, {
          dryRun: request.query.dryRun === 'true',
          fileName: request.query.fileName ?? '',
          adminEmail: currentUser(request).email,
        });
        return reply.status(202).send(started);
      },
    );
  });

  app.get(
    '/api/admin/catalog/import',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['catalog-transfer'],
        summary: 'The latest imports (admin)',
        description: 'The ten most recent imports, newest first: the page shows the first one after a reload.',
        security: bearerAuth,
        response: { 200: z.array(catalogImportSchema), ...errorResponses(401, 403) },
      },
    },
    async () => imports.recent(),
  );

  app.get(
    '/api/admin/catalog/imports',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['catalog-transfer'],
        summary: 'The import history (admin)',
        description:
          'Every import kept, newest first, dry runs included: when, who, the file name, rows added, updated and ' +
          'refused (`errorCount`), and how it ended. Paged by `limit` (at most 100, 20 when left out) and `offset`.',
        security: bearerAuth,
        querystring: catalogImportHistoryQuerySchema,
        response: { 200: catalogImportHistorySchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => imports.history(request.query),
  );

  app.get(
    '/api/admin/catalog/import/:id',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['catalog-transfer'],
        summary: "An import's progress (admin)",
        description:
          'Rows done of the total, parts added and updated, errors so far (line, column, message), time left.',
        security: bearerAuth,
        params: uuidParamsSchema,
        response: { 200: catalogImportSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => imports.get(request.params.id),
  );

  app.post(
    '/api/admin/catalog/import/:id/cancel',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['catalog-transfer'],
        summary: 'Cancel an import (admin)',
        description:
          'The import stops after the batch it is writing; batches already written stay. A finished import is ' +
          'answered as it is.',
        security: bearerAuth,
        params: uuidParamsSchema,
        response: { 200: catalogImportSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => imports.cancel(request.params.id),
  );

  app.get(
    '/api/admin/export/products.csv',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['catalog-transfer'],
        summary: 'Export products with fitment as CSV (admin)',
        description:
          'Streamed `text/csv` in the columns import reads. Cells starting with `=`, `+`, `-`, `@`, tab or carriage ' +
          'return get a leading apostrophe so a spreadsheet shows them as text (import takes it off again).',
        security: bearerAuth,
        response: { 200: csvFile, ...errorResponses(401, 403) },
      },
    },
    async (_request, reply) => reply.headers(csvHeaders(`products-${stamp()}.csv`)).send(exports.products()),
  );

  app.get(
    '/api/admin/export/orders.csv',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['catalog-transfer'],
        summary: 'Export orders as CSV (admin)',
        description:
          'Streamed `text/csv`, oldest first. `status` keeps one status; `from` and `to` (YYYY-MM-DD, UTC, both ' +
          'days included) keep the orders placed between them. Cells are neutralised as in the products export.',
        security: bearerAuth,
        querystring: orderExportQuerySchema,
        response: { 200: csvFile, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.headers(csvHeaders(`orders-${stamp()}.csv`)).send(exports.orders(request.query)),
  );
};
