/**
 * The public catalogue's answers, kept per instance as the bytes that were sent (issue 15 item 4, ADR 016).
 *
 * A repeated read is answered before the body, validation, the handler, drizzle and serialisation: an anonymous one
 * from the app's first onRequest hook (`KeptReadShortcut`), a signed-in customer's from a route-level onRequest hook
 * after the app-wide ones (load shedding, security headers, auth). Every write to a table
 * those answers show sends one notification per statement (migration 0014); every instance LISTENs and forgets
 * everything on one. While the listening connection is down nothing is kept or served from memory.
 *
 * Answers that depend on the caller are never kept: an administrator's (parts carry the adding admin's email) goes
 * past the cache both ways. Signed-in customers see exactly what anonymous visitors see.
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';
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
import type { NotificationListener } from '../db/notifications.ts';
import { answerWritesWhenHeard } from './own-writes.ts';

/** The channel the catalogue triggers notify (migration 0014). */
export const CATALOG_CHANNEL = 'redline_catalog';

/** The GET routes whose answers are kept: public, and the same for every caller who is not an administrator. */
export const PUBLIC_CATALOG_READS: readonly string[] = [
  '/api/part',
  '/api/part/page',
  '/api/part/facets',
  '/api/part/suggest',
  '/api/part/:id',
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

/** The longest a write's answer waits for this instance to have seen the write's own notification. */
const WRITE_CATCH_UP_MS = 1000;

/** Methods that never write: every other one waits for its notifications before answering. */

/** Cache-Control of a kept answer: browsers and proxies may keep it, but ask again (a 304) before each use. */
const REVALIDATE = 'no-cache';

interface CachedAnswer {
  body: Buffer;
  etag: string;
  /** The headers the route set (content type, counts, ETag, Cache-Control), as [name, value]. */
  headers: [string, string][];
  /** The body compressed, made on the first request that accepts each encoding. */
  encoded?: Partial<Record<Encoding, Buffer>>;
}

type Encoding = 'br' | 'gzip';

/** As @fastify/compress is registered in app.ts: smaller bodies are not worth compressing. */
const COMPRESS_THRESHOLD = 1024;

/** Per request on a kept route: its key, and the cache generation when it started. */
interface CacheTicket {
  key: string;
  generation: number;
  hit: boolean;
  /** Header names already set before the route ran (security headers): not the route's own. */
  before: Set<string>;
}

declare module 'fastify' {
  interface FastifyRequest {
    catalogCacheTicket: CacheTicket | null;
  }
  interface FastifyInstance {
    /** Issue 15: the catalogue read cache, for health and tests; absent when CATALOG_CACHE=off. */
    catalogCache?: CatalogReadCache;
  }
}

/** The kept answers and the generation that tells a read whether the catalogue changed while it ran. */
export class CatalogReadCache {
  readonly #answers: LRUCache<string, CachedAnswer>;
  #generation = 0;
  #listening = false;
  #listener: NotificationListener | undefined;
  #closing = false;

  constructor(maxBytes: number) {
    this.#answers = new LRUCache<string, CachedAnswer>({
      maxSize: maxBytes,
      // Keys are kept too; a few hundred bytes of bookkeeping per entry is counted with them.
      sizeCalculation: (answer, key) =>
        answer.body.length + (answer.encoded?.br?.length ?? 0) + (answer.encoded?.gzip?.length ?? 0) + key.length + 256,
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

  /** Forgets everything; a read that started before this will not keep its answer. */
  clear(): void {
    this.#generation += 1;
    this.#answers.clear();
  }

  /** Start listening on the database (one connection of its own on PostgreSQL). */
  async listen(database: DatabaseHandle, log?: FastifyBaseLogger): Promise<void> {
    if (!database.listen) return;
    let lost = false;
    this.#listener = await database.listen(CATALOG_CHANNEL, {
      onNotification: () => this.clear(),
      // Up again after a loss: whatever changed meanwhile went unheard, so everything kept is forgotten.
      onListening: (listening) => {
        this.clear();
        if (!listening && this.#listening && !this.#closing) {
          lost = true;
          log?.warn('catalogue cache: lost the database notifications; reads go to the database until they are back');
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
   * The kept body in `encoding`, compressed once (brotli at quality 4, as @fastify/compress does) rather than on
   * every answer; the entry is stored again so its size counts the new bytes (unless it was forgotten meanwhile).
   */
  encoded(key: string, answer: CachedAnswer, encoding: Encoding): Buffer {
    let bytes = answer.encoded?.[encoding];
    if (!bytes) {
      bytes =
        encoding === 'br'
          ? zlib.brotliCompressSync(answer.body, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: answer.body.length,
              },
            })
          : zlib.gzipSync(answer.body);
      // A new entry object: lru-cache counts a value's size again only when the value changes.
      const updated = { ...answer, encoded: { ...answer.encoded, [encoding]: bytes } };
      if (this.#answers.peek(key) === answer) this.#answers.set(key, updated);
    }
    return bytes;
  }

  /** Keeps an answer only if nothing changed since the read began (its generation) and we are still listening. */
  set(key: string, answer: CachedAnswer, generation: number): boolean {
    if (!this.#listening || generation !== this.#generation) return false;
    this.#answers.set(key, answer);
    return true;
  }
}

/**
 * The route's pattern, its path parameters and its query as Fastify parsed them (what the handler would see), with
 * the query's names sorted: `?limit=20&sort=price` and `?sort=price&limit=20` are one answer.
 */
export function cacheKey(request: FastifyRequest): string {
  let key = request.routeOptions.url ?? request.url;
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
 * `*` stands for any not named.
 */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | undefined {
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
  /** The app's first hook, answering anonymous repeated reads from this cache (see `KeptReadShortcut`). */
  shortcut?: KeptReadShortcut;
}

/** Registered after auth (whose onRequest says who calls) and before the routes it keeps. */
export const catalogReadCachePlugin = fp(
  async (app: FastifyInstance, { database, maxBytes, shortcut }: CatalogReadCachePluginOptions) => {
    const cache = new CatalogReadCache(maxBytes);
    app.decorate('catalogCache', cache);
    shortcut?.serveFrom(cache);
    app.decorateRequest('catalogCacheTicket', null);
    await cache.listen(database, app.log);
    app.addHook('onClose', async () => cache.close());

    const serveKept: onRequestHookHandler = (request, reply, done) => {
      // An administrator's answer differs (emails) and is neither served from nor kept in the cache.
      if (request.user?.isAdmin) return done();
      const key = cacheKey(request);
      if (request.method === 'GET' && request.headers.authorization === undefined) shortcut?.remember(request.url, key);
      const kept = cache.get(key);
      if (!kept) {
        request.catalogCacheTicket = {
          key,
          generation: cache.generation,
          hit: false,
          before: new Set(Object.keys(reply.getHeaders())),
        };
        return done();
      }
      request.catalogCacheTicket = { key, generation: cache.generation, hit: true, before: new Set() };
      for (const [name, value] of kept.headers) reply.header(name, value);
      if (etagMatches(request.headers['if-none-match'], kept.etag)) {
        reply.code(304).send();
        return;
      }
      const encoding =
        kept.body.length >= COMPRESS_THRESHOLD ? preferredEncoding(request.headers['accept-encoding']) : undefined;
      if (!encoding) {
        reply.send(kept.body);
        return;
      }
      // Content-Encoding set: @fastify/compress leaves the bytes alone.
      reply.header('content-encoding', encoding).header('vary', 'accept-encoding');
      reply.send(cache.encoded(key, kept, encoding));
    };

    const keepAnswer: onSendHookHandler = (request, reply, payload, done) => {
      const ticket = request.catalogCacheTicket;
      if (!ticket || ticket.hit || reply.statusCode !== 200) return done(null, payload);
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
      const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
      const etag = etagOf(body);
      reply.header('etag', etag).header('cache-control', REVALIDATE);
      cache.set(ticket.key, { body, etag, headers: routeHeaders(reply, ticket.before) }, ticket.generation);
      if (etagMatches(request.headers['if-none-match'], etag)) {
        reply.code(304);
        return done(null, '');
      }
      done(null, body);
    };

    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (!methods.includes('GET') || methods.length !== 1 || !PUBLIC_CATALOG_READS.includes(route.url)) return;
      route.onRequest = [...hookList(route.onRequest), serveKept];
      // First of the route's onSend hooks: @fastify/compress adds its own there, and the bytes are kept before it.
      route.onSend = [keepAnswer, ...hookList(route.onSend)];
    });

    // A write's answer leaves only once this instance has seen the write's own notifications, so the writer's next
    // read (on this instance) is fresh. Refused writes changed nothing and do not wait.
    answerWritesWhenHeard(app, () => cache.caughtUp());
  },
  { name: 'catalog-read-cache', dependencies: ['auth'] },
);

/**
 * A kept answer to an anonymous GET, sent from the app's first onRequest hook straight to Node's response (issue 15
 * item 4). From the route's own hook (`serveKept`) it still went through every app-wide hook before it (load
 * shedding, graceful stop, auth) and, once sent, through Fastify's reply and the onSend chain (request id,
 * compression, the route's hooks) and their header checks: on a quiet machine that held a kept read to 37-47 % of a
 * bare Fastify route's requests per second. Here the answer gets what those would have added, worked out once per
 * kept answer: the security headers, the route's headers (type, counts, ETag, Cache-Control), the length, and per
 * request the request id and the encoding. Fastify's routing, request id, request logging and onResponse hooks
 * still run (they are set up before the first hook).
 *
 * Skipped on purpose for these answers: load shedding (a kept answer is the cheapest the server gives; refusing it
 * would not relieve anything) and the in-progress tracking of a graceful stop (it is answered before this function
 * returns). Only without an Authorization header: who calls is auth's to decide, and an administrator's answer differs
 * (it then goes the usual way, and a customer's is still served by `serveKept`). app.ts adds the hook only when no
 * CORS origins are configured (the CORS plugin's headers would be missing).
 */
export class KeptReadShortcut {
  #cache: CatalogReadCache | undefined;
  readonly #securityHeaders: readonly string[];
  /** Per kept answer: its constant headers as Node's flat [name, value, …] list, and its body's length. */
  readonly #heads = new WeakMap<CachedAnswer, { head: string[]; length: string }>();

  constructor(securityHeaders: Readonly<Record<string, string>>) {
    this.#securityHeaders = Object.entries(securityHeaders).flat();
  }

  serveFrom(cache: CatalogReadCache): void {
    this.#cache = cache;
  }

  /**
   * The address as sent → its cache key, as the route's own hook worked it out for an anonymous read (routing and
   * query parsing depend on nothing else). Spares this hook `request.routeOptions`, which Fastify builds anew on
   * each use, and the key's making. Only a kept route's addresses are here, so a miss is any other address.
   */
  readonly #keys = new LRUCache<string, string>({ max: 10_000 });

  remember(url: string, key: string): void {
    if (this.#keys.get(url) !== key) this.#keys.set(url, key);
  }

  readonly hook: onRequestHookHandler = (request, reply, done) => {
    const cache = this.#cache;
    if (cache === undefined || request.method !== 'GET' || request.headers.authorization !== undefined) return done();
    const key = this.#keys.get(request.url);
    const kept = key === undefined ? undefined : cache.get(key);
    if (key === undefined || kept === undefined) return done();
    reply.hijack();
    const response = reply.raw;
    const { head, length } = this.#headOf(kept);
    if (etagMatches(request.headers['if-none-match'], kept.etag)) {
      response.writeHead(304, [...head, 'x-request-id', request.id]);
      response.end();
      return;
    }
    const encoding =
      kept.body.length >= COMPRESS_THRESHOLD ? preferredEncoding(request.headers['accept-encoding']) : undefined;
    if (!encoding) {
      response.writeHead(200, [...head, 'content-length', length, 'x-request-id', request.id]);
      response.end(kept.body);
      return;
    }
    const body = cache.encoded(key, kept, encoding);
    response.writeHead(200, [
      ...head,
      'content-encoding',
      encoding,
      'vary',
      'accept-encoding',
      'content-length',
      String(body.length),
      'x-request-id',
      request.id,
    ]);
    response.end(body);
  };

  #headOf(kept: CachedAnswer): { head: string[]; length: string } {
    let made = this.#heads.get(kept);
    if (!made) {
      made = { head: [...this.#securityHeaders, ...kept.headers.flat()], length: String(kept.body.length) };
      this.#heads.set(kept, made);
    }
    return made;
  }
}

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
