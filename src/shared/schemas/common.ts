import { z } from 'zod';
import { databaseDrivers } from '../enums.ts';
import { isShopImagePath } from './review-image.ts';

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

/**
 * The `Idempotency-Key` a client may send with a money-moving request (POST /api/myorder, and later checkout, pay,
 * refund): any 1 to 255 visible ASCII characters, e.g. a UUID made per submit.
 */
export const idempotencyKeyHeadersSchema = z.looseObject({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, 'Idempotency-Key Must Be 1 To 255 Visible Characters')
    .optional()
    .describe('Makes the request safe to retry: the same key answers the first result again'),
});

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

/**
 * An http(s) URL or a path the shop serves itself (e.g. `/images/parts/brake-disc.svg`, or an uploaded photo's
 * `/uploads/parts/….webp`).
 */
export const imageRefSchema = z
  .string()
  .trim()
  .max(2048, 'Use A Link Of At Most 2048 Characters')
  .refine(
    (value) => isShopImagePath(value) || httpUrlSchema.safeParse(value).success,
    'Provide A Valid Image Link (http or https)',
  );

/**
 * `GET /api/health` (readiness): 200 while this instance can take orders, `degraded` when it can but something it
 * shares is missing (Redis: the sign-in limits count in memory on this instance); 503 in the error shape, with this
 * report as its one detail, when it cannot (database unreachable or not writable, the embedded database's disk
 * below its floor). Failures are named by a short reason, never an address or a message.
 */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    reachable: z.boolean(),
    driver: z.enum(databaseDrivers),
    writable: z.boolean(),
    reason: z.string().optional(),
  }),
  disk: z.object({
    freeMb: z.number().int(),
    floorMb: z.number(),
    ok: z.boolean(),
    /** The database lives on this disk (PGlite): below the floor, writes are refused and the instance is not ready. */
    holdsDatabase: z.boolean(),
  }),
  rateLimits: z.object({
    counting: z.enum(['redis', 'memory']),
    redisConfigured: z.boolean(),
    redisReachable: z.boolean(),
  }),
  jobs: z
    .object({ ok: z.boolean(), state: z.string() })
    .optional()
    .describe('The background job runner, when this app runs one'),
  catalogCache: z
    .object({ listening: z.boolean() })
    .optional()
    .describe(
      'The catalogue read cache (ADR 016), unless CATALOG_CACHE=off: whether this instance hears of every catalogue ' +
        'write; while it does not, catalogue reads go to the database (degraded)',
    ),
  /** How long the checks took; each is cut off at HEALTH_CHECK_TIMEOUT_MS. */
  elapsedMs: z.number(),
});
export type HealthReport = z.infer<typeof healthResponseSchema>;

/**
 * `GET /api/health` as the public sees it: up (`ok`, `degraded`) or down (503). The report above, which names the
 * database driver and the free disk space, goes only to the health port (HEALTH_PORT) and to a signed-in admin.
 */
export const healthSummarySchema = z.object({ status: z.enum(['ok', 'degraded']) });

/** `GET /api/health/live` (liveness): the process answers; it asks no dependency. */
export const livenessResponseSchema = z.object({ status: z.literal('ok') });
