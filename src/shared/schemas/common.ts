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
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** Record ids are UUIDs; a malformed one is reported as not found, never as a server error. */
export const idSchema = z.string();
export const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

export const idParamsSchema = z.strictObject({ id: idSchema });

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
