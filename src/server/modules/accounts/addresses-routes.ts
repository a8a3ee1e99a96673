import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { newAddressBodySchema, savedAddressSchema } from '../../../shared/schemas/addresses.ts';
import { uuidParamsSchema } from '../../../shared/schemas/common.ts';
import { currentUser, requireUser } from '../../plugins/auth.ts';
import { bearerAuth, errorResponses } from '../../route-schemas.ts';
import type { AddressBook } from './address-book.ts';

/** The caller's address book: shown on My Profile, offered at checkout and on the payment page. */
export const addressesRoutes: FastifyPluginAsyncZod<{ addressBook: AddressBook }> = async (app, { addressBook }) => {
  app.get(
    '/api/addresses',
    {
      onRequest: requireUser,
      schema: {
        tags: ['accounts'],
        summary: "The caller's saved shipping addresses, most recently used first",
        security: bearerAuth,
        response: { 200: z.array(savedAddressSchema), ...errorResponses(401) },
      },
    },
    async (request) => addressBook.list(currentUser(request).id),
  );

  app.post(
    '/api/addresses',
    {
      onRequest: requireUser,
      schema: {
        tags: ['accounts'],
        summary: 'Save a shipping address and phone',
        description: 'The same address and phone again is the same entry (moved to the top). At most 20 are kept.',
        security: bearerAuth,
        body: newAddressBodySchema,
        response: { 201: savedAddressSchema, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => reply.status(201).send(await addressBook.add(currentUser(request).id, request.body)),
  );

  app.delete(
    '/api/addresses/:id',
    {
      onRequest: requireUser,
      schema: {
        tags: ['accounts'],
        summary: 'Remove a saved address',
        description: 'Orders keep their own copy of the address. Anyone else’s entry answers 404.',
        security: bearerAuth,
        params: uuidParamsSchema,
        response: { 204: z.null(), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await addressBook.remove(currentUser(request).id, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
