/**
 * The public catalogue's answers, kept per instance as the bytes that were sent (ADR 016, ADR 026).
 *
 * A repeated read is answered by a route-level onRequest hook, which runs after every app-wide one (load shedding,
 * graceful stop, security headers, CORS, auth), with `reply.send` of the kept bytes: the rest is Fastify's usual
 * path, the onSend chain included (the 304 for a matching If-None-Match, compression, the request id).
 *
 * Every write to a table those answers show sends one notification per statement (migrations 0014 and 0016), and
 * every instance LISTENs. A statement on `parts` names the rows it changed: those parts' own answers
 * (`GET /api/part/:id`) are forgotten, and every other answer (lists, search, facets, which may show any part); the
 * other parts' own answers stay. Any other notification forgets everything. While the listening connection is down
 * nothing is kept or served from memory; it counts as down as soon as a catch-up check (every write's, and a probe
 * while idle) goes unanswered, since a connection whose peer vanished says nothing.
 *
 * Answers that depend on the caller are never kept: an administrator's (parts carry the adding admin's email) goes
 * past the cache both ways. Signed-in customers see exactly what anonymous visitors see.
 */
import crypto from 'node:crypto';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  onSendHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { DatabaseHandle } from '../db/client.ts';
import { type CatalogChange, catalogChange, type NotificationListener } from '../db/notifications.ts';
import { answerWritesWhenHeard } from './own-writes.ts';

/** The channel the catalogue triggers notify (migration 0014). */
export const CATALOG_CHANNEL = 'redline_catalog';

/** The route whose answer shows one part and nothing of any other part (its fitment, photos, brand, category). */
const PART_ROUTE = '/api/part/:id';

/** The GET routes whose answers are kept: public, and the same for every caller who is not an administrator. */
export const PUBLIC_CATALOG_READS: readonly string[] = [
  '/api/part',
  '/api/part/page',
  '/api/part/facets',
  '/api/part/suggest',
  PART_ROUTE,
  '/api/category',
  '/api/brand',
  '/api/review',
  '/api/vehicle/types',
  '/api/vehicle/years',
  '/api/vehicle/makes',
  '/api/vehicle/models',
  '/api/vehicle',
  '/api/vehicle/:id',
];

/**
 * The longest a write's answer waits for this instance to have seen the write's own notification; a check not
 * answered within it counts the listening connection lost (nothing kept is served until it is back).
 */
const WRITE_CATCH_UP_MS = 1000;

/** Cache-Control of a kept answer: browsers and proxies may keep it, but ask again (a 304) before each use. */
const REVALIDATE = 'no-cache';

/**
 * How many recently changed parts are remembered, so a part's read that overlapped its change does not keep an old
 * answer. A read older than the oldest change forgotten from this list keeps nothing (the list's floor).
 */
const RECENT_PART_CHANGES = 10_000;

interface CachedAnswer {
  body: Buffer;
  etag: string;
  /** The headers the route set (content type, counts, ETag, Cache-Control), as [name, value]. */
  headers: [string, string][];
  /** The part whose own answer this is (`GET /api/part/:id`); absent for lists and everything else. */
  part?: string;
}

/** Per request on a kept route: its key, its part (if it is one part's answer), and the generation it started at. */
interface CacheTicket {
  key: string;
  part: string | undefined;
  generation: number;
  /** The kept answer this request is answered with, or null when it goes to the handler. */
  kept: CachedAnswer | null;
  /** Header names already set before the route ran (security headers, CORS): not the route's own. */
  before: Set<string>;
}

declare module 'fastify' {
  interface FastifyRequest {
    catalogCacheTicket: CacheTicket | null;
  }
  interface FastifyInstance {
    /** The catalogue read cache, for health and tests; absent when CATALOG_CACHE=off. */
    catalogCache?: CatalogReadCache;
  }
}

/** The kept answers and the generations that tell a read whether what it shows changed while it ran. */
export class CatalogReadCache {
  readonly #answers: LRUCache<string, CachedAnswer>;
  /** Keys of kept answers, by part (its own answers) and the rest: what one change forgets. */
  readonly #partKeys = new Map<string, Set<string>>();
  readonly #otherKeys = new Set<string>();
  /** Moves on every notification. */
  #generation = 0;
  /** The generation of the last change that may have touched anything (and of the last loss of notifications). */
  #everythingAt = 0;
  /** The generation of each recent part change, and the newest generation forgotten from that list. */
  readonly #partChangedAt: LRUCache<string, number>;
  #partChangesFloor = 0;
  #listening = false;
  #listener: NotificationListener | undefined;
  #closing = false;

  constructor(maxBytes: number) {
    this.#answers = new LRUCache<string, CachedAnswer>({
      maxSize: maxBytes,
      // Keys are kept too; a few hundred bytes of bookkeeping per entry is counted with them.
      sizeCalculation: (answer, key) => answer.body.length + key.length + 256,
      dispose: (answer, key) => this.#unindex(key, answer),
    });
    this.#partChangedAt = new LRUCache<string, number>({
      max: RECENT_PART_CHANGES,
      dispose: (generation) => {
        this.#partChangesFloor = Math.max(this.#partChangesFloor, generation);
      },
    });
  }

  get generation(): number {
    return this.#generation;
  }

  /** Answers are kept and served only while this instance hears about every write. */
  get listening(): boolean {
    return this.#listening;
  }

  get size(): number {
    return this.#answers.size;
  }

  get bytes(): number {
    return this.#answers.calculatedSize;
  }

  /** The keys of the kept answers (tests, diagnostics). */
  keys(): string[] {
    return [...this.#answers.keys()];
  }

  /** Forgets everything; a read that started before this will not keep its answer. */
  clear(): void {
    this.#generation += 1;
    this.#everythingAt = this.#generation;
    this.#answers.clear();
  }

  /** Forgets what a change may have touched: everything, or these parts' own answers and every other answer. */
  forget(change: CatalogChange): void {
    if (change.parts === 'all') {
      this.clear();
      return;
    }
    this.#generation += 1;
    for (const key of [...this.#otherKeys]) this.#answers.delete(key);
    for (const part of change.parts) {
      this.#partChangedAt.set(part, this.#generation);
      const keys = this.#partKeys.get(part);
      if (keys) for (const key of [...keys]) this.#answers.delete(key);
    }
  }

  /** Start listening on the database (one connection of its own on PostgreSQL). */
  async listen(database: DatabaseHandle, log?: FastifyBaseLogger): Promise<void> {
    if (!database.listen) return;
    let lost = false;
    this.#listener = await database.listen(CATALOG_CHANNEL, {
      onNotification: (payload) => this.forget(catalogChange(payload)),
      // Up again after a loss: whatever changed meanwhile went unheard, so everything kept is forgotten.
      onListening: (listening, reason) => {
        this.clear();
        if (!listening && this.#listening && !this.#closing) {
          lost = true;
          log?.warn(
            { reason },
            'catalogue cache: lost the database notifications; reads go to the database until they are back',
          );
        } else if (listening && lost) {
          lost = false;
          log?.info('catalogue cache: database notifications are back; the cache starts empty');
        }
        this.#listening = listening;
      },
    });
  }

  async close(): Promise<void> {
    this.#closing = true;
    await this.#listener?.close();
    this.#listening = false;
    this.clear();
  }

  /** Waits (bounded) until this instance has seen every notification committed so far. */
  async caughtUp(): Promise<void> {
    if (this.#listening) await this.#listener?.caughtUp(WRITE_CATCH_UP_MS);
  }

  get(key: string): CachedAnswer | undefined {
    return this.#listening ? this.#answers.get(key) : undefined;
  }

  /**
   * Keeps an answer only if we are still listening and nothing it shows changed since the read began (at
   * `generation`): for one part's answer, neither that part nor everything; for any other, no change at all.
   */
  set(key: string, answer: CachedAnswer, generation: number): boolean {
    if (!this.#listening || !this.#unchangedSince(generation, answer.part)) return false;
    this.#answers.set(key, answer);
    // Too large to keep (or not kept for another reason): nothing to index.
    if (this.#answers.peek(key) !== answer) return false;
    if (answer.part === undefined) {
      this.#otherKeys.add(key);
      return true;
    }
    const keys = this.#partKeys.get(answer.part) ?? new Set<string>();
    keys.add(key);
    this.#partKeys.set(answer.part, keys);
    return true;
  }

  #unchangedSince(generation: number, part: string | undefined): boolean {
    if (part === undefined) return generation === this.#generation;
    return (
      generation >= this.#everythingAt &&
      generation >= this.#partChangesFloor &&
      generation >= (this.#partChangedAt.peek(part) ?? 0)
    );
  }

  #unindex(key: string, answer: CachedAnswer): void {
    if (answer.part === undefined) {
      this.#otherKeys.delete(key);
      return;
    }
    const keys = this.#partKeys.get(answer.part);
    keys?.delete(key);
    if (keys?.size === 0) this.#partKeys.delete(answer.part);
  }
}

/**
 * The route's pattern, its path parameters and its query as Fastify parsed them (what the handler would see), with
 * the query's names sorted: `?limit=20&sort=price` and `?sort=price&limit=20` are one answer.
 */
export function cacheKey(route: string, request: FastifyRequest): string {
  let key = route;
  const params = request.params as Record<string, unknown>;
  for (const name of Object.keys(params).sort()) key += `|${name}=${String(params[name])}`;
  key += '?';
  const query = request.query as Record<string, unknown>;
  for (const name of Object.keys(query).sort()) key += `${JSON.stringify(name)}=${JSON.stringify(query[name])}&`;
  return key;
}

/** RFC 9110 13.1.2: If-None-Match compares weakly; `*` matches any current answer. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  for (const candidate of ifNoneMatch.split(',')) {
    const tag = candidate.trim();
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}

/**
 * The encoding to answer in, as @fastify/compress would choose it: brotli, then gzip, each unless refused (`q=0`);
 * `*` stands for any not named. The catalogue's answers no longer use it (@fastify/compress encodes them); the
 * server-rendered pages do (static-spa.ts).
 */
export function preferredEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    weights.set(name, q ? Number(q.slice(2)) : 1);
  }
  for (const encoding of ['br', 'gzip'] as const) {
    const weight = weights.get(encoding) ?? weights.get('*');
    if (weight !== undefined && weight > 0) return encoding;
  }
  return undefined;
}

/** A strong validator: the answer's own bytes, hashed. */
function etagOf(body: Buffer): string {
  return `"${crypto.createHash('sha1').update(body).digest('base64url')}"`;
}

interface CatalogReadCachePluginOptions {
  database: DatabaseHandle;
  maxBytes: number;
}

/** Registered after auth (whose onRequest says who calls) and before the routes it keeps. */
export const catalogReadCachePlugin = fp(
  async (app: FastifyInstance, { database, maxBytes }: CatalogReadCachePluginOptions) => {
    const cache = new CatalogReadCache(maxBytes);
    app.decorate('catalogCache', cache);
    app.decorateRequest('catalogCacheTicket', null);
    await cache.listen(database, app.log);
    app.addHook('onClose', async () => cache.close());

    // A route-level hook, one per kept route (its pattern known without `request.routeOptions`, which Fastify builds
    // anew on each use): the app-wide onRequest hooks (load shedding, graceful stop, headers, auth) have run.
    const serveKept =
      (route: string): onRequestHookHandler =>
      (request, reply, done) => {
        // An administrator's answer differs (emails) and is neither served from nor kept in the cache.
        if (request.user?.isAdmin) return done();
        const key = cacheKey(route, request);
        const kept = cache.get(key) ?? null;
        const part = route === PART_ROUTE ? String((request.params as { id: unknown }).id) : undefined;
        request.catalogCacheTicket = {
          key,
          part,
          generation: cache.generation,
          kept,
          before: kept ? new Set() : new Set(Object.keys(reply.getHeaders())),
        };
        if (!kept) return done();
        for (const [name, value] of kept.headers) reply.header(name, value);
        reply.send(kept.body);
      };

    // First of the route's onSend hooks: @fastify/compress adds its own there, and the plain bytes are kept.
    const keepAnswer: onSendHookHandler = (request, reply, payload, done) => {
      const ticket = request.catalogCacheTicket;
      if (!ticket || reply.statusCode !== 200) return done(null, payload);
      let etag = ticket.kept?.etag;
      if (etag === undefined) {
        if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
        const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
        etag = etagOf(body);
        reply.header('etag', etag).header('cache-control', REVALIDATE);
        const headers = routeHeaders(reply, ticket.before);
        cache.set(
          ticket.key,
          { body, etag, headers, ...(ticket.part ? { part: ticket.part } : {}) },
          ticket.generation,
        );
        payload = body;
      }
      if (etagMatches(request.headers['if-none-match'], etag)) {
        reply.code(304);
        return done(null, '');
      }
      done(null, payload);
    };

    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (!methods.includes('GET') || methods.length !== 1 || !PUBLIC_CATALOG_READS.includes(route.url)) return;
      route.onRequest = [...hookList(route.onRequest), serveKept(route.url)];
      route.onSend = [keepAnswer, ...hookList(route.onSend)];
    });

    // A write's answer leaves only once this instance has seen the write's own notifications, so the writer's next
    // read (on this instance) is fresh. Refused writes changed nothing and do not wait.
    answerWritesWhenHeard(app, () => cache.caughtUp());
  },
  { name: 'catalog-read-cache', dependencies: ['auth'] },
);

function hookList<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

/** The headers the route itself set, to be set again on each answer from memory. */
function routeHeaders(reply: FastifyReply, before: Set<string>): [string, string][] {
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value === undefined || before.has(name) || name === 'content-length' || name === 'x-request-id') continue;
    headers.push([name, Array.isArray(value) ? value.join(', ') : String(value)]);
  }
  return headers;
}
