import { z } from 'zod';
import { databaseDrivers } from '../enums.ts';

/** The one error shape every failing API call answers with (design §2). */
export const errorResponseSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(z.unknown()).optional(),
  }),
});

/** Record ids are UUIDs: 8-4-4-4-12 hex digits of any version, the canonical form of PostgreSQL's uuid type. */
const uuidSchema = z.guid({ error: 'Provide A Valid Id' });

/**
 * The params of every route with an `:id` in its path: a malformed id is bad input (400 invalid_data, from
 * validation) and never reaches a query; a well-formed id that names nothing is the route's 404.
 */
export const uuidParamsSchema = z.strictObject({
  id: uuidSchema,
});

/**
 * For the ids that arrive in a body (`partId`, `orderId`) or from Stripe: those name a record, and one that names
 * nothing, malformed or unknown, is answered "not found" (404) like an unknown one, so it is tested, not validated.
 */
export const isUuid = (value: string): boolean => uuidSchema.safeParse(value).success;

/** An http(s) URL, for images and profile links a user types in. */
export const httpUrlSchema = z
  .string()
  .trim()
  .max(2048, 'Use A Link Of At Most 2048 Characters')
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'Provide A Valid http(s) Link');

/** An http(s) URL or a path the shop serves itself (e.g. `/images/parts/brake-disc.svg`). */
export const imageRefSchema = z
  .string()
  .trim()
  .max(2048, 'Use A Link Of At Most 2048 Characters')
  .refine(
    (value) =>
      /^\/images\/[a-z0-9/_.-]+\.(svg|png|jpe?g|webp|avif)$/i.test(value) || httpUrlSchema.safeParse(value).success,
    'Provide A Valid Image Link (http or https)',
  );

export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  database: z.object({ reachable: z.boolean(), driver: z.enum(databaseDrivers) }),
});
