import v8 from 'node:v8';
import underPressure, { type FastifyUnderPressureOptions } from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import { errorBody } from '../errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false` on routes that must answer even under overload (the health checks). */
    loadShedding?: boolean;
  }
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

/**
 * Overload is answered early and cheaply (503 + Retry-After, in the one error shape) instead of queueing requests
 * until their clients give up, before the body is read:
 * - when more requests are in progress than can be answered within LOAD_SHED_MAX_WAIT_MS (an adaptive limit learnt
 *   from answer times: what is admitted is still served quickly), or than MAX_CONCURRENT_REQUESTS, after a short
 *   pause (SHED_PAUSE_MS);
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

    const cap = config.MAX_CONCURRENT_REQUESTS || Number.POSITIVE_INFINITY;
    const target = config.LOAD_SHED_MAX_WAIT_MS;
    const adaptive = target > 0 ? new AdaptiveLimit(target, cap) : undefined;
    let inProgress = 0;
    // Callback style: an async hook costs a promise, and moves the rest of every request's hooks (cached catalogue
    // reads included) to a microtask.
    app.addHook('onRequest', (request, reply, done) => {
      if (exempt(request)) return done();
      if (inProgress >= cap || (adaptive && inProgress >= adaptive.value)) {
        setTimeout(() => reply.send(shed(reply)), SHED_PAUSE_MS * (0.5 + Math.random()));
        return;
      }
      inProgress += 1;
      const since = performance.now();
      // 'close' comes once per response, answered or abandoned by its client.
      reply.raw.once('close', () => {
        inProgress -= 1;
        const now = performance.now();
        adaptive?.answered(now - since, inProgress, now);
      });
      done();
    });
  },
  { name: 'load-shedding' },
);
