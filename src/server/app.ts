import crypto from 'node:crypto';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { type AppConfig, publicUrl } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { DiskFloor } from './db/disk-floor.ts';
import { errorBody, registerErrorHandling } from './errors.ts';
import { lazyChildLogger, safeLoggerOptions } from './log-safety.ts';
import { accountsRoutes } from './modules/accounts/accounts-routes.ts';
import { addressesRoutes } from './modules/accounts/addresses-routes.ts';
import { cartRoutes } from './modules/cart/cart-routes.ts';
import { catalogRoutes } from './modules/catalog/catalog-routes.ts';
import { catalogTransferRoutes } from './modules/catalog-transfer/catalog-transfer-routes.ts';
import { fitmentRoutes } from './modules/fitment/fitment-routes.ts';
import { healthRoutes } from './modules/health/health-routes.ts';
import { jobsRoutes } from './modules/jobs/jobs-routes.ts';
import { mediaRoutes } from './modules/media/media-routes.ts';
import { checkoutRoutes } from './modules/orders/checkout-routes.ts';
import { ordersRoutes } from './modules/orders/orders-routes.ts';
import { paymentsRoutes } from './modules/payments/payments-routes.ts';
import { refundsRoutes } from './modules/payments/refunds-routes.ts';
import { DEFAULT_REVIEW_LIMITS } from './modules/reviews/review-limits.ts';
import { reviewsRoutes } from './modules/reviews/reviews-routes.ts';
import { seoRoutes } from './modules/seo/seo-routes.ts';
import { authPlugin } from './plugins/auth.ts';
import { catalogReadCachePlugin } from './plugins/catalog-read-cache.ts';
import { httpServerOptions, limitConnections } from './plugins/connection-limits.ts';
import { dbPlugin } from './plugins/db.ts';
import { gracefulStopPlugin } from './plugins/graceful-stop.ts';
import { idempotencyPlugin } from './plugins/idempotency.ts';
import { loadSheddingPlugin } from './plugins/load-shedding.ts';
import { refuseNulCharacters } from './plugins/nul-character-guard.ts';
import { openapiPlugin } from './plugins/openapi.ts';
import { createRateLimitStore, memoryOnlyState } from './plugins/rate-limit-store.ts';
import { requestDeadlinePlugin } from './plugins/request-deadline.ts';
import { apiSecurityHeaders, securityHeadersPlugin } from './plugins/security-headers.ts';
import { inlineStyleHashes, staticSpaPlugin } from './plugins/static-spa.ts';
import { createServices } from './services.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The checked configuration this app was built with (modules read their settings here, never process.env). */
    config: AppConfig;
  }
}

interface BuildAppOptions {
  config: AppConfig;
  database: DatabaseHandle;
  sessionSecret: string;
  logger?: FastifyServerOptions['logger'];
  /**
   * 'on-ready' (the default, tests): the background jobs start when the app is made ready. 'by-caller': the
   * production server starts them once it listens (serve.ts), so pg-boss setting up its queues is not part of the
   * time before the shop answers (ADR 022).
   */
  startJobs?: 'on-ready' | 'by-caller';
  /**
   * The name this server keeps across restarts (instance-identity.ts): what it held when it died is taken back at
   * its next start. Default: INSTANCE_ID, else a random one (a test app's, or a restart that finds no earlier life).
   */
  instanceId?: string;
}

/** Pino settings: request ids on every line, and no personal data or secret ever written (log-safety.ts). */
export function loggerOptions(config: AppConfig): FastifyServerOptions['logger'] {
  return safeLoggerOptions(config.LOG_LEVEL);
}

/**
 * Builds the whole app without listening, so tests can `inject` into exactly what production runs.
 * Boot order: external plugins, then the app's own (db, the services built once, auth), then routes, each handed
 * the services it uses.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const isHttps = config.PUBLIC_URL?.startsWith('https://') ?? false;
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    genReqId: () => crypto.randomUUID(),
    // A request's logger is made on its first line, not for every request (log-safety.ts).
    childLoggerFactory: lazyChildLogger,
    bodyLimit: 64 * 1024,
    trustProxy: config.TRUST_PROXY ? parseTrustProxy(config.TRUST_PROXY) : false,
    routerOptions: { ignoreTrailingSlash: true },
    // Every wait on a client is bounded: request, headers, keep-alive, idle (connection-limits.ts).
    ...httpServerOptions(config),
    // During a graceful stop, requests already on their way are still served (with `Connection: close`) rather
    // than answered 503 outside our error shape; the database stays open until app.close() has finished.
    return503OnClosing: false,
    // Fastify answers a URL it cannot even route (bad percent-encoding, an over-long parameter) before any hook
    // runs; without this those answers would lack the security headers and the one error shape.
    frameworkErrors: (error, request, rawReply) => {
      const reply = rawReply as FastifyReply;
      reply
        .headers(apiSecurityHeaders({ https: isHttps }))
        .header('x-request-id', request.id)
        .header('cache-control', 'no-store')
        .code(error.statusCode === 414 ? 414 : 400)
        .send(errorBody('invalid_data', 'The address of this request is not valid.'));
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.decorate('config', config);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  limitConnections(app.server, config);
  // Callback style: an async hook costs a promise on every answer.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });

  const securityOptions = {
    https: isHttps,
    stripe: config.paymentProvider === 'stripe',
    // The web build's inline stylesheet (ADR 018) is allowed by its hash.
    styleHashes: inlineStyleHashes(config.STATIC_DIR),
  };
  await app.register(requestDeadlinePlugin, config); // 503 past a request's deadline; onSend before the others.
  await app.register(securityHeadersPlugin, securityOptions);
  // Closed by default: only the origins named in CORS_ORIGINS may call the API from another site.
  if (config.CORS_ORIGINS) {
    await app.register(cors, { origin: config.CORS_ORIGINS.split(',').map((o) => o.trim()) });
  }
  await app.register(compress, { global: true, threshold: 1024 });
  // A stop that reaches its time cap still answers what it holds (graceful-stop.ts, main.ts).
  await app.register(gracefulStopPlugin);
  // Overload is answered 503 early, health never (load-shedding.ts).
  await app.register(loadSheddingPlugin, config);
  // Limits count in Redis when it answers, else at once in this instance's memory (rate-limit-store.ts).
  const limitStore = config.REDIS_URL
    ? createRateLimitStore({
        url: config.REDIS_URL,
        connectTimeoutMs: config.REDIS_CONNECT_TIMEOUT_MS,
        commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
        log: app.log,
      })
    : undefined;
  if (limitStore) app.addHook('onClose', () => limitStore.close());
  await app.register(rateLimit, {
    global: false,
    ...(limitStore ? { store: limitStore.Store } : {}),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      error: 'Too Many Requests',
      message: `Too many attempts. Please try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
    }),
  });
  await app.register(openapiPlugin);

  // For every route, present and future: PostgreSQL text cannot hold U+0000, so it is refused as bad input.
  app.addHook('preValidation', refuseNulCharacters);

  await app.register(dbPlugin, { handle: options.database });
  // `reply.idempotent(…)`: money-moving routes run once per Idempotency-Key (idempotency.ts).
  await app.register(idempotencyPlugin);
  const services = createServices(options.database, config, {
    sessionSecret: options.sessionSecret,
    log: app.log,
    instanceId: options.instanceId ?? config.INSTANCE_ID ?? crypto.randomUUID(),
  });
  app.decorate('services', services);
  app.decorate('sessions', services.sessions);
  // Jobs start once the app (and so the database it was given) is ready, or when the caller says (startJobs), and
  // stop before the database is closed by its owner (serve.ts or a test): first the forgot-password work already
  // answered, then the runner and mail.
  // What this instance's previous life left running (an import shown as running, its spool file) is cleared before
  // the first request: nothing of this life runs yet, so whatever is marked as this instance's is from before.
  app.addHook('onReady', async () => services.catalogImports.recover());
  if (options.startJobs !== 'by-caller') app.addHook('onReady', async () => services.jobs.start());
  app.addHook('onClose', async () => {
    await services.accounts.settled();
    await services.catalogImports.stop();
    await services.jobs.stop();
  });
  await app.register(authPlugin, { sessions: services.sessions });
  // Public catalogue reads answered from memory on Fastify's usual path, forgotten when what they show is written
  // on any instance (ADR 026).
  if (config.CATALOG_CACHE === 'on') {
    await app.register(catalogReadCachePlugin, {
      database: options.database,
      maxBytes: config.CATALOG_CACHE_MAX_MB * 1024 * 1024,
    });
  }

  const { accounts, profiles, google, sessions, catalog, vehicles, garage, reviews, orders, payments, jobs } = services;
  await app.register(healthRoutes, {
    database: options.database,
    disk: options.database.disk ?? new DiskFloor(config.DATA_DIR, config.DISK_FREE_FLOOR_MB),
    rateLimits: limitStore ?? { state: () => memoryOnlyState },
    timeoutMs: config.HEALTH_CHECK_TIMEOUT_MS,
    ...(app.catalogCache ? { catalogCache: app.catalogCache } : {}),
    // `jobs` (a JobsProbe) is left out until the job runner offers a cheap state of its own: its stats() counts
    // the whole job table, too heavy for a probe that load balancers call every few seconds.
  });
  await app.register(accountsRoutes, { accounts, profiles, google, sessions });
  await app.register(jobsRoutes, { jobs });
  await app.register(catalogRoutes, { catalog });
  await app.register(fitmentRoutes, { vehicles, garage });
  await app.register(reviewsRoutes, {
    reviews,
    limits: { ...DEFAULT_REVIEW_LIMITS, namespace: config.RATE_LIMIT_NAMESPACE },
  });
  await app.register(ordersRoutes, { orders });
  await app.register(paymentsRoutes, { payments, refunds: services.refunds });
  await app.register(refundsRoutes, { refunds: services.refunds });
  // Cart, checkout, and the address book (ADR 011).
  await app.register(cartRoutes, { cart: services.cart });
  await app.register(checkoutRoutes, { checkout: services.checkout });
  await app.register(addressesRoutes, { addressBook: services.addressBook });
  // CSV import and export of the catalogue (ADR 014).
  await app.register(catalogTransferRoutes, { imports: services.catalogImports, exports: services.catalogExports });
  // Part photos, and their files served from UPLOADS_DIR at /uploads/ (ADR 013).
  await app.register(mediaRoutes, {
    photos: services.photos,
    uploadsDir: config.uploadsDir,
    maxUploadBytes: config.PHOTO_MAX_UPLOAD_MB * 1024 * 1024,
  });

  await app.register(seoRoutes, { sitemap: services.sitemap });
  await app.register(staticSpaPlugin, { root: config.STATIC_DIR, publicUrl: publicUrl(config) });
  return app;
}

/** `true`, a hop count, or a comma-separated list of trusted proxy addresses. */
function parseTrustProxy(value: string): boolean | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  // Fastify takes a number as "trust the nth hop"; its types only name strings, so it is passed through as one.
  return /^\d+$/.test(value) ? (Number(value) as unknown as string) : value;
}
