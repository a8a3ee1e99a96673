import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  VEHICLE_IMPORT_MAX_BYTES,
  vehicleCsvColumns,
  vehicleImportQuerySchema,
  vehicleImportResultSchema,
} from '../../../shared/schemas/catalog-transfer.ts';
import { uuidParamsSchema } from '../../../shared/schemas/common.ts';
import {
  garageAddSchema,
  garageCurrentSchema,
  garageMergeSchema,
  garagePatchSchema,
  garageSchema,
  vehicleInputSchema,
  vehicleListQuerySchema,
  vehicleMakeInputSchema,
  vehicleMakeSchema,
  vehicleMakesQuerySchema,
  vehicleModelInputSchema,
  vehicleModelPatchSchema,
  vehicleModelSchema,
  vehicleModelsQuerySchema,
  vehicleSchema,
  vehicleTypes,
  vehicleYearsQuerySchema,
} from '../../../shared/schemas/fitment.ts';
import { InvalidError } from '../../errors.ts';
import { currentUser, requireAdmin, requireUser } from '../../plugins/auth.ts';
import { bearerAuth, errorResponses } from '../../route-schemas.ts';
import type { GarageService } from './garage-service.ts';
import type { VehiclesService } from './vehicles-service.ts';

const deleted = z.null().describe('Deleted');

/** The vehicle selector and the admin's vehicles (`/api/vehicle…`), and My Garage (`/api/garage…`). */
export const fitmentRoutes: FastifyPluginAsyncZod<{ vehicles: VehiclesService; garage: GarageService }> = async (
  app,
  { vehicles, garage },
) => {
  // ---- The selector: Type → Year → Make → Model → Variant, each offering only what exists.

  app.get(
    '/api/vehicle/types',
    {
      schema: {
        tags: ['vehicles'],
        summary: 'Vehicle types that have vehicles',
        response: { 200: z.array(z.enum(vehicleTypes)) },
      },
    },
    async () => vehicles.types(),
  );

  app.get(
    '/api/vehicle/years',
    {
      schema: {
        tags: ['vehicles'],
        summary: 'Model years that have vehicles, newest first',
        querystring: vehicleYearsQuerySchema,
        response: { 200: z.array(z.number().int()), ...errorResponses(400) },
      },
    },
    async (request) => vehicles.years(request.query),
  );

  app.get(
    '/api/vehicle/makes',
    {
      schema: {
        tags: ['vehicles'],
        summary: 'Makes, by name',
        description: 'With `type` or `year`: only makes that have such vehicles. Without: every make (admin pickers).',
        querystring: vehicleMakesQuerySchema,
        response: { 200: z.array(vehicleMakeSchema), ...errorResponses(400) },
      },
    },
    async (request) => vehicles.makes(request.query),
  );

  app.get(
    '/api/vehicle/models',
    {
      schema: {
        tags: ['vehicles'],
        summary: 'Models, by make and name',
        description: 'With `type` or `year`: only models that have such vehicles. Without: every model (of `makeId`).',
        querystring: vehicleModelsQuerySchema,
        response: { 200: z.array(vehicleModelSchema), ...errorResponses(400) },
      },
    },
    async (request) => vehicles.models(request.query),
  );

  app.get(
    '/api/vehicle',
    {
      schema: {
        tags: ['vehicles'],
        summary: 'Vehicles (the variants of a model year, or the admin list)',
        description: 'Ordered by make, model, year (newest first), variant. The total is in `X-Total-Count`.',
        querystring: vehicleListQuerySchema,
        response: { 200: z.array(vehicleSchema), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { items, total } = await vehicles.list(request.query);
      reply.header('x-total-count', String(total));
      return items;
    },
  );

  app.get(
    '/api/vehicle/:id',
    {
      schema: {
        tags: ['vehicles'],
        summary: 'One vehicle',
        params: uuidParamsSchema,
        response: { 200: vehicleSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => vehicles.get(request.params.id),
  );

  // ---- Admin: makes, models, model years.

  app.post(
    '/api/vehicle/make',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['vehicles'],
        summary: 'Add a make (admin)',
        security: bearerAuth,
        body: vehicleMakeInputSchema,
        response: { 201: vehicleMakeSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await vehicles.addMake(request.body.name)),
  );

  app.patch(
    '/api/vehicle/make/:id',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['vehicles'],
        summary: 'Rename a make (admin)',
        security: bearerAuth,
        params: uuidParamsSchema,
        body: vehicleMakeInputSchema,
        response: { 200: vehicleMakeSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => vehicles.renameMake(request.params.id, request.body.name),
  );

  app.delete(
    '/api/vehicle/make/:id',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['vehicles'],
        summary: 'Delete a make without models (admin)',
        security: bearerAuth,
        params: uuidParamsSchema,
        response: { 204: deleted, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await vehicles.removeMake(request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/vehicle/model',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['vehicles'],
        summary: 'Add a model to a make (admin)',
        security: bearerAuth,
        body: vehicleModelInputSchema,
        response: { 201: vehicleModelSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await vehicles.addModel(request.body)),
  );

  app.patch(
    '/api/vehicle/model/:id',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['vehicles'],
        summary: 'Rename or retype a model (admin)',
        security: bearerAuth,
        params: uuidParamsSchema,
        body: vehicleModelPatchSchema,
        response: { 200: vehicleModelSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => vehicles.updateModel(request.params.id, request.body),
  );

  app.delete(
    '/api/vehicle/model/:id',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['vehicles'],
        summary: 'Delete a model without vehicles or fitment (admin)',
        security: bearerAuth,
        params: uuidParamsSchema,
        response: { 204: deleted, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await vehicles.removeModel(request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/vehicle',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['vehicles'],
        summary: 'Add model years of a model, for one variant (admin)',
        description:
          'One vehicle per year of the range; years that exist are kept. Answers every vehicle of the range.',
        security: bearerAuth,
        body: vehicleInputSchema,
        response: { 201: z.array(vehicleSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => reply.status(201).send(await vehicles.addVehicles(request.body)),
  );

  app.delete(
    '/api/vehicle/:id',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['vehicles'],
        summary: "Delete a vehicle that is in no one's garage (admin)",
        security: bearerAuth,
        params: uuidParamsSchema,
        response: { 204: deleted, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await vehicles.removeVehicle(request.params.id);
      return reply.status(204).send(null);
    },
  );

  // The vehicle file is CSV and nothing else (another type is 415), read whole (it is small: 1 MB at most), in a
  // scope of its own so the other routes keep the app's JSON parser.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'text/csv',
      { parseAs: 'buffer', bodyLimit: VEHICLE_IMPORT_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );
    scope.post(
      '/api/admin/vehicles/import',
      {
        onRequest: requireAdmin,
        schema: {
          tags: ['vehicles'],
          summary: 'Add makes, models and model years from CSV (admin)',
          description:
            `The body is the CSV file (\`Content-Type: text/csv\`, UTF-8, at most 1 MB and 5,000 rows; commas, ` +
            `semicolons or tabs). Columns by header name: ${vehicleCsvColumns.map((c) => `\`${c}\``).join(', ')}; ` +
            '`make`, `model` and `years` (`2019` or `2019-2023`) required, `type` needed for a new model, `variant` ' +
            'optional. What exists is kept. `dryRun=true`: every row checked, the errors or the counts answered, ' +
            'nothing changed. Otherwise all rows are written in one transaction, or none: a file with any row ' +
            'error is 400 with the errors as `details`. A file that is not CSV, or has a bad header, is 400.',
          security: bearerAuth,
          querystring: vehicleImportQuerySchema,
          response: { 200: vehicleImportResultSchema, ...errorResponses(400, 401, 403, 413, 415) },
        },
      },
      async (request) => {
        const body = request.body;
        if (!Buffer.isBuffer(body))
          throw new InvalidError('Send the CSV file as the body, with Content-Type: text/csv.');
        return vehicles.importCsv(body, request.query.dryRun === 'true');
      },
    );
  });

  // ---- My Garage: the caller's own vehicles; every call answers the whole garage.

  app.get(
    '/api/garage',
    {
      onRequest: requireUser,
      schema: {
        tags: ['garage'],
        summary: 'My Garage',
        security: bearerAuth,
        response: { 200: garageSchema, ...errorResponses(401) },
      },
    },
    async (request) => garage.get(currentUser(request).id),
  );

  app.post(
    '/api/garage',
    {
      onRequest: requireUser,
      schema: {
        tags: ['garage'],
        summary: 'Add a vehicle to My Garage',
        description: 'It becomes the current vehicle unless `current` is false. At most 20 vehicles (422).',
        security: bearerAuth,
        body: garageAddSchema,
        response: { 201: garageSchema, ...errorResponses(400, 401, 404, 409, 422) },
      },
    },
    async (request, reply) => reply.status(201).send(await garage.add(currentUser(request).id, request.body)),
  );

  app.put(
    '/api/garage/current',
    {
      onRequest: requireUser,
      schema: {
        tags: ['garage'],
        summary: 'Choose the current vehicle (a garage entry id), or none',
        security: bearerAuth,
        body: garageCurrentSchema,
        response: { 200: garageSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => garage.setCurrent(currentUser(request).id, request.body.id),
  );

  app.post(
    '/api/garage/merge',
    {
      onRequest: requireUser,
      schema: {
        tags: ['garage'],
        summary: "Join a visitor's browser garage to the account's (after sign-in)",
        description:
          'New vehicles are added (up to 20), vehicles already there keep their name, unknown vehicles are skipped, ' +
          'and `currentVehicleId` becomes the current vehicle.',
        security: bearerAuth,
        body: garageMergeSchema,
        response: { 200: garageSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => garage.merge(currentUser(request).id, request.body),
  );

  app.patch(
    '/api/garage/:id',
    {
      onRequest: requireUser,
      schema: {
        tags: ['garage'],
        summary: 'Name a vehicle of My Garage',
        security: bearerAuth,
        params: uuidParamsSchema,
        body: garagePatchSchema,
        response: { 200: garageSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => garage.rename(currentUser(request).id, request.params.id, request.body.name),
  );

  app.delete(
    '/api/garage/:id',
    {
      onRequest: requireUser,
      schema: {
        tags: ['garage'],
        summary: 'Remove a vehicle from My Garage',
        description: 'If it was the current vehicle, none is current afterwards.',
        security: bearerAuth,
        params: uuidParamsSchema,
        response: { 200: garageSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => garage.remove(currentUser(request).id, request.params.id),
  );
};
