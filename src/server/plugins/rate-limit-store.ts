import { createRequire } from 'node:module';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** What @fastify/rate-limit asks of a store (its own RedisStore and LocalStore have exactly these). */
interface Counter {
  current: number;
  ttl: number;
}
type CounterCallback = (error: Error | null, result: Counter | null) => void;
interface Store {
  incr(key: string, callback: CounterCallback, timeWindow: number, max: number): void;
  read(key: string, callback: CounterCallback, timeWindow: number, max: number): void;
  child(routeOptions: Record<string, unknown>): Store;
}
type StoreConstructor = new (continueExceeding: boolean, exponentialBackoff: boolean, ...rest: unknown[]) => Store;

// The plugin's own stores (CommonJS, untyped): the Redis one keeps the counters' keys and Lua exactly as before.
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreConstructor;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreConstructor;

/** How the limits count right now, for /api/health. */
export interface RateLimitStoreState {
  /** `redis`: counted in the shared store; `memory`: on this instance only (no REDIS_URL, or Redis is down). */
  counting: 'redis' | 'memory';
  /** REDIS_URL is set. */
  configured: boolean;
  /** Redis answered its last command or ping (false while the limits fall back to memory). */
  reachable: boolean;
}

/** How often a Redis that failed is asked again (a PING) while the limits count in memory. */
const PROBE_INTERVAL_MS = 1000;

/**
 * Sign-in limits that fail closed, and fast: counted in Redis while it answers, so every instance shares
 * them; when it does not (down, frozen, unreachable), counted at once in this instance's memory instead. A breaker
 * remembers the outage, so only the first request of an outage waits (at most REDIS_COMMAND_TIMEOUT_MS) and the
 * rest go straight to memory; a PING every second closes it again. Each change is logged once.
 */
class SharedLimitBreaker {
  readonly redis: Redis;
  readonly #log: FastifyBaseLogger;
  #open = false;
  /** An outage has been logged and its end not yet. */
  #announced = false;
  #probe: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(redis: Redis, log: FastifyBaseLogger) {
    this.redis = redis;
    this.#log = log;
    // Until the first connection is up, commands would only fail: count in memory meanwhile (not an outage yet).
    this.#open = redis.status !== 'ready';
    redis.on('ready', () => this.#recover());
    redis.on('close', () => this.trip(undefined, 'connection closed'));
    redis.on('error', (error: Error) => this.trip(error, 'connection error'));
  }

  get open(): boolean {
    return this.#open;
  }

  trip(error: Error | undefined, reason: string): void {
    if (this.#closed) return;
    this.#open = true;
    if (!this.#announced) {
      this.#announced = true;
      this.#log.warn(
        { err: error, reason },
        'rate-limit store (Redis) unavailable: limits now count in memory on this instance',
      );
    }
    this.#probe ??= setInterval(() => void this.#ping(), PROBE_INTERVAL_MS).unref();
  }

  async #ping(): Promise<void> {
    if (this.redis.status !== 'ready') return;
    try {
      await this.redis.ping();
      this.#recover();
    } catch {
      // Still down: the next probe asks again.
    }
  }

  #recover(): void {
    if (this.#probe) clearInterval(this.#probe);
    this.#probe = undefined;
    this.#open = false;
    if (this.#announced && !this.#closed) {
      this.#announced = false;
      this.#log.info('rate-limit store (Redis) is back: limits count in Redis again');
    }
  }

  /** A live check for /api/health: a PING within the caller's bound; a failure trips the breaker at once. */
  async check(timeoutMs: number): Promise<boolean> {
    if (this.redis.status !== 'ready') {
      // Still making its first connection is not an outage (a failed one is, and says so through 'error').
      if (this.redis.status !== 'connecting' && this.redis.status !== 'wait') {
        this.trip(undefined, `connection ${this.redis.status}`);
      }
      return false;
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.redis.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('Redis PING timed out')), timeoutMs);
        }),
      ]);
      this.#recover();
      return true;
    } catch (error) {
      this.trip(error as Error, 'health check');
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.#closed = true;
    if (this.#probe) clearInterval(this.#probe);
  }
}

class FallbackStore implements Store {
  readonly #breaker: SharedLimitBreaker;
  readonly #shared: Store;
  readonly #local: Store;

  constructor(breaker: SharedLimitBreaker, shared: Store, local: Store) {
    this.#breaker = breaker;
    this.#shared = shared;
    this.#local = local;
  }

  incr(key: string, callback: CounterCallback, timeWindow: number, max: number): void {
    this.#count('incr', key, callback, timeWindow, max);
  }

  read(key: string, callback: CounterCallback, timeWindow: number, max: number): void {
    this.#count('read', key, callback, timeWindow, max);
  }

  #count(method: 'incr' | 'read', key: string, callback: CounterCallback, timeWindow: number, max: number): void {
    if (this.#breaker.open) {
      this.#local[method](key, callback, timeWindow, max);
      return;
    }
    this.#shared[method](
      key,
      (error, result) => {
        if (!error) {
          callback(null, result);
          return;
        }
        this.#breaker.trip(error, 'command failed');
        this.#local[method](key, callback, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }

  child(routeOptions: Record<string, unknown>): Store {
    return new FallbackStore(this.#breaker, this.#shared.child(routeOptions), this.#local.child(routeOptions));
  }
}

/** The plugin's settings a store is built with (the rest it ignores). */
interface StoreSettings {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
}

export interface RateLimitStore {
  /** For @fastify/rate-limit's `store` option: the plugin builds it with its own settings. */
  Store: FastifyRateLimitStoreCtor;
  state(): RateLimitStoreState;
  /** Health: is the shared store answering right now (bounded by `timeoutMs`)? */
  check(timeoutMs: number): Promise<RateLimitStoreState>;
  close(): Promise<void>;
}

export interface RateLimitStoreOptions {
  url: string;
  connectTimeoutMs: number;
  commandTimeoutMs: number;
  log: FastifyBaseLogger;
}

/** The Redis-backed store with its in-memory fallback, and the Redis client it owns. */
export function createRateLimitStore(options: RateLimitStoreOptions): RateLimitStore {
  // Loaded here, only when REDIS_URL is set: a shop without Redis does not keep the client in memory.
  const { Redis: RedisClient } = require('ioredis') as typeof import('ioredis');
  const redis = new RedisClient(options.url, {
    connectTimeout: options.connectTimeoutMs,
    commandTimeout: options.commandTimeoutMs,
    // A command while disconnected fails at once instead of waiting in a queue for a Redis that may never return.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  const breaker = new SharedLimitBreaker(redis, options.log);
  const state = (): RateLimitStoreState => ({
    counting: breaker.open ? 'memory' : 'redis',
    configured: true,
    reachable: !breaker.open,
  });
  class Store extends FallbackStore {
    constructor(settings: StoreSettings) {
      super(
        breaker,
        new RedisStore(settings.continueExceeding ?? false, settings.exponentialBackoff ?? false, redis),
        new LocalStore(settings.continueExceeding ?? false, settings.exponentialBackoff ?? false),
      );
    }
  }
  return {
    // The plugin's declared store type is narrower than what it hands its own stores (it passes `null` results).
    Store: Store as unknown as FastifyRateLimitStoreCtor,
    state,
    check: async (timeoutMs) => {
      await breaker.check(timeoutMs);
      return state();
    },
    close: async () => {
      breaker.close();
      // A frozen Redis never answers QUIT: wait no longer than for any other command, then drop the connection.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        redis.quit().catch(() => {}),
        new Promise((resolve) => {
          timer = setTimeout(resolve, options.commandTimeoutMs);
        }),
      ]);
      clearTimeout(timer);
      redis.disconnect();
    },
  };
}

/** Without REDIS_URL: the plugin's own memory store, reported as such. */
export const memoryOnlyState: RateLimitStoreState = { counting: 'memory', configured: false, reachable: false };
