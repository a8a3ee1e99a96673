import v8 from 'node:v8';
import underPressure, { type FastifyUnderPressureOptions } from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import { errorBody } from '../errors.ts';

/**
 * Requests whose answer times are learnt apart (one adaptive limit each), so that slow answers of one kind do not
 * shrink what another may have in progress: a burst of sign-ups must not shed orders and catalogue reads.
 */
export type LoadClass = 'password' | 'write' | 'read';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false` on routes that must answer even under overload (the health checks). */
    loadShedding?: boolean;
    /** Set by this plugin on every route from PASSWORD_ROUTES and the route's method, unless the route sets it. */
    loadClass?: LoadClass;
  }
}

/**
 * The routes that hash a password (scrypt: a thread of libuv's pool for a good while each, one after another while
 * the hasher's few threads are taken): their answer times say how busy the hasher is, not the shop. A new route that
 * hashes or verifies a password goes here; a name that is no route stops the app at start.
 */
export const PASSWORD_ROUTES: readonly string[] = [
  'POST /api/signup',
  'POST /api/login',
  'POST /api/password/reset',
  'POST /api/password/change',
];

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function loadClassOf(method: string, url: string | undefined): LoadClass {
  if (url !== undefined && PASSWORD_ROUTES.includes(`${method} ${url}`)) return 'password';
  return READ_METHODS.has(method) ? 'read' : 'write';
}

type SheddingConfig = Pick<
  AppConfig,
  | 'LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS'
  | 'LOAD_SHED_MAX_EVENT_LOOP_UTILIZATION'
  | 'LOAD_SHED_MAX_HEAP_MB'
  | 'MAX_CONCURRENT_REQUESTS'
  | 'LOAD_SHED_MAX_WAIT_MS'
>;

/** The adaptive limit on requests in progress: where it starts, its floor, and how often it may shrink. */
const START_LIMIT = 16;
const MIN_LIMIT = 8;
const SHRINK_EVERY_MS = 100;

/**
 * How many requests may be in progress at once so that each is answered within `targetMs` (additive increase,
 * multiplicative decrease on the answer times it sees): it grows by one per full window of quick answers while it
 * is what holds requests back, and drops to 90% of what is in progress when answers come later than the target.
 * A few slow requests cannot shrink it far (the floor), and it never exceeds MAX_CONCURRENT_REQUESTS.
 */
class AdaptiveLimit {
  #limit: number;
  #credit = 0;
  #lastShrink = 0;
  readonly #targetMs: number;
  readonly #max: number;

  constructor(targetMs: number, max: number) {
    this.#targetMs = targetMs;
    this.#max = max;
    this.#limit = Math.min(START_LIMIT, max);
  }

  get value(): number {
    return Math.floor(this.#limit);
  }

  answered(ms: number, inProgress: number, now: number): void {
    if (ms > this.#targetMs) {
      if (now - this.#lastShrink < SHRINK_EVERY_MS) return;
      this.#lastShrink = now;
      this.#limit = Math.max(MIN_LIMIT, Math.min(this.#limit, inProgress + 1) * 0.9);
    } else if (ms < this.#targetMs / 2 && inProgress + 1 >= this.value) {
      this.#credit += 1;
      if (this.#credit >= this.#limit) {
        this.#credit = 0;
        this.#limit = Math.min(this.#max, this.#limit + 1);
      }
    }
  }
}

/** Long enough for a burst to pass, short enough that a client retrying after it finds the server ready. */
const RETRY_AFTER_SECONDS = 2;
const SHED_MESSAGE = 'The shop is very busy right now. Please try again in a few seconds.';

function exempt(request: FastifyRequest): boolean {
  return request.routeOptions.config?.loadShedding === false;
}

function shed(reply: FastifyReply) {
  reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS));
  return errorBody('service_unavailable', SHED_MESSAGE);
}

/**
 * A request refused by the in-progress limit is answered after a pause (half to one and a half times this, at
 * random so that retries do not come back in step), not at once. Clients that ask again as soon as they are
 * refused (load generators, naive retry loops, impatient reloads) otherwise turn the refusals themselves into the
 * overload, and almost nothing is served (figures in docs/operations.md, "Load shedding"). A waiting request costs
 * a timer.
 */
const SHED_PAUSE_MS = 1000;

/** Pressure must last this many samples (a second each) before requests are shed. */
const SUSTAINED_SAMPLES = 2;

/** The requests of one class in progress, and the limit learnt from their answer times. */
interface Lane {
  inProgress: number;
  adaptive: AdaptiveLimit | undefined;
}

/**
 * Overload is answered early and cheaply (503 + Retry-After, in the one error shape) instead of queueing requests
 * until their clients give up, before the body is read:
 * - when more requests of a class (LoadClass: password, other writes, reads) are in progress than can be answered
 *   within LOAD_SHED_MAX_WAIT_MS (an adaptive limit per class, learnt from that class's answer times: what is
 *   admitted is still served quickly), or more requests in all than MAX_CONCURRENT_REQUESTS, after a short pause
 *   (SHED_PAUSE_MS);
 * - when the event loop has lagged, been saturated or the heap nearly full for two samples in a row (measured by
 *   @fastify/under-pressure every second; one long pause, such as PGlite opening a database, is not overload).
 * Routes with `config.loadShedding: false` (health) are never shed.
 */
export const loadSheddingPlugin = fp(
  async (app: FastifyInstance, config: SheddingConfig) => {
    const heapLimitMb = v8.getHeapStatistics().heap_size_limit / 1024 / 1024;
    const maxHeapMb = config.LOAD_SHED_MAX_HEAP_MB || Math.floor(heapLimitMb * 0.9);
    let streak = 0;
    await app.register(underPressure, {
      maxEventLoopDelay: config.LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS,
      maxEventLoopUtilization: config.LOAD_SHED_MAX_EVENT_LOOP_UTILIZATION,
      // Utilisation of the last second, not since start.
      eventLoopUtilizationMode: 'interval',
      maxHeapUsedBytes: maxHeapMb * 1024 * 1024,
      retryAfter: RETRY_AFTER_SECONDS,
      // A value returned is sent as the answer; undefined lets the request through (under-pressure's README; its
      // types only admit void).
      pressureHandler: ((request: FastifyRequest, reply: FastifyReply) =>
        exempt(request) || streak < SUSTAINED_SAMPLES
          ? undefined
          : shed(reply)) as unknown as FastifyUnderPressureOptions['pressureHandler'],
    });
    const sampler = setInterval(() => {
      streak = app.isUnderPressure() ? streak + 1 : 0;
      if (streak === SUSTAINED_SAMPLES) app.log.warn({ pressure: app.memoryUsage() }, 'overloaded: shedding load');
    }, 1000).unref();
    app.addHook('onClose', async () => clearInterval(sampler));

    // Every route of one method gets its class once, here, so a request only reads it (the others: by the request's).
    const routes = new Set<string>();
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) routes.add(`${method} ${route.url}`);
      const [method] = methods;
      if (method && methods.length === 1 && !route.config?.loadClass)
        route.config = { ...route.config, loadClass: loadClassOf(method, route.url) };
    });
    app.addHook('onReady', async () => {
      const missing = PASSWORD_ROUTES.filter((route) => !routes.has(route));
      routes.clear();
      if (missing.length > 0) throw new Error(`load-shedding.ts PASSWORD_ROUTES names no route: ${missing.join(', ')}`);
    });

    const cap = config.MAX_CONCURRENT_REQUESTS || Number.POSITIVE_INFINITY;
    const target = config.LOAD_SHED_MAX_WAIT_MS;
    const lane = (): Lane => ({ inProgress: 0, adaptive: target > 0 ? new AdaptiveLimit(target, cap) : undefined });
    const lanes: Record<LoadClass, Lane> = { password: lane(), write: lane(), read: lane() };
    let inProgress = 0;
    // Callback style: an async hook costs a promise, and moves the rest of every request's hooks (cached catalogue
    // reads included) to a microtask.
    app.addHook('onRequest', (request, reply, done) => {
      if (exempt(request)) return done();
      // Unknown addresses (404) and routes of several methods: by the request's method.
      const own = lanes[request.routeOptions.config?.loadClass ?? loadClassOf(request.method, undefined)];
      if (inProgress >= cap || (own.adaptive && own.inProgress >= own.adaptive.value)) {
        setTimeout(() => reply.send(shed(reply)), SHED_PAUSE_MS * (0.5 + Math.random()));
        return;
      }
      inProgress += 1;
      own.inProgress += 1;
      const since = performance.now();
      // 'close' comes once per response, answered or abandoned by its client.
      reply.raw.once('close', () => {
        inProgress -= 1;
        own.inProgress -= 1;
        const now = performance.now();
        own.adaptive?.answered(now - since, own.inProgress, now);
      });
      done();
    });
  },
  { name: 'load-shedding' },
);
