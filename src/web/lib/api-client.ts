import type { z } from 'zod';
import { clearToken, readToken } from './auth-token.ts';

/** A failed API call, carrying the server's error shape. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown[] | undefined;
  constructor(status: number, code: string, message: string, details?: unknown[]) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** Called when a signed-in request answers 401: the session ended, so the app signs out and asks to log in. */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/**
 * Where requests go and what sends them: in the browser its own origin and `fetch`; while the server renders a page
 * (entry-server.tsx) the server's own app, so the same query functions fill the page's cache.
 */
interface ApiTransport {
  origin(): string;
  fetch(url: URL, init: RequestInit): Promise<Response>;
}

let transport: ApiTransport = {
  origin: () => window.location.origin,
  fetch: (url, init) => fetch(url, init),
};

export function setApiTransport(next: ApiTransport): void {
  transport = next;
}

/**
 * A schema loaded when the first answer must be checked (ADR 018): zod and the shared schemas are a large part of
 * the code, and no page needs them before it has asked the API for something, while a server-rendered page arrives
 * with its data. The loader is a dynamic import of the feature's `…-schemas.ts`, which builds its answers from
 * `src/shared/schemas`.
 */
export interface LazySchema<T> {
  readonly load: () => Promise<z.ZodType<T>>;
}

/** A `LazySchema` that imports its module once and keeps the schema. */
export function lazySchema<T>(load: () => Promise<z.ZodType<T>>): LazySchema<T> {
  let loading: Promise<z.ZodType<T>> | undefined;
  return {
    load: () => {
      loading ??= load().catch((error: unknown) => {
        // A failed download (offline for a moment) is tried again with the next answer.
        loading = undefined;
        throw error;
      });
      return loading;
    },
  };
}

/**
 * One `LazySchema` per named schema of a module of answer schemas loaded on demand (ADR 018); the browser imports
 * the module once, with the first answer any of them checks.
 */
export function lazySchemas<M extends Record<string, z.ZodType>, K extends keyof M & string>(
  load: () => Promise<M>,
  names: readonly K[],
): { [P in K]: LazySchema<z.output<M[P]>> } {
  return Object.fromEntries(
    names.map((name) => [name, lazySchema(() => load().then((schemas) => schemas[name] as z.ZodType))]),
  ) as { [P in K]: LazySchema<z.output<M[P]>> };
}

interface ApiRequest<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Checks the answer's shape, so a server change shows up as a clear error instead of undefined fields. */
  schema?: z.ZodType<T> | LazySchema<T>;
  signal?: AbortSignal;
  /**
   * A bearer token other than the stored one (null: none), e.g. to sign out a session the user chose not to
   * continue. A 401 on it says nothing about the stored session, so it does not sign the user out.
   */
  token?: string | null;
  /** Extra request headers, e.g. `Idempotency-Key` (see apiOnce). */
  headers?: Record<string, string>;
}

interface ApiResponse<T> {
  data: T;
  headers: Headers;
}

/** A page of a list the server counts and pages (ADR 017). */
export interface ListPage<T> {
  items: T[];
  /** Everything the filter matches (X-Total-Count), not just this page. */
  total: number;
  /** Where the pages beside this one start (keyset paging): a deep page costs what the first does. */
  nextCursor: string | null;
  prevCursor: string | null;
}

/** `apiRequest` for a list answered a page at a time: the items with the count and cursors its headers carry. */
export async function apiPage<T>(path: string, options: ApiRequest<T[]>): Promise<ListPage<T>> {
  const { data, headers } = await apiRequest(path, options);
  const total = Number(headers.get('x-total-count'));
  return {
    items: data,
    total: Number.isFinite(total) ? total : data.length,
    nextCursor: headers.get('x-next-cursor'),
    prevCursor: headers.get('x-prev-cursor'),
  };
}

/** The one way the web app calls the API: JSON in and out, bearer token attached, errors as ApiError. */
export async function apiRequest<T>(path: string, options: ApiRequest<T> = {}): Promise<ApiResponse<T>> {
  const url = new URL(`/api${path}`, transport.origin());
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  }
  const ownToken = options.token === undefined;
  const token = ownToken ? readToken() : options.token;
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  // A Blob (a chosen file, such as a part's photo) is sent as its bytes; anything else as JSON.
  const raw = options.body instanceof Blob ? options.body : undefined;
  if (options.body !== undefined)
    headers['content-type'] = raw ? raw.type || 'application/octet-stream' : 'application/json';

  let response: Response;
  try {
    response = await transport.fetch(url, {
      method: options.method ?? 'GET',
      headers,
      // Said outright: the Google sign-in code is redeemed with the cookie this origin set, and no other is sent.
      credentials: 'same-origin',
      body: raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', 'Cannot reach the shop. Check your connection and try again.');
  }

  const text = await response.text();
  const json: unknown = text ? safeParse(text) : undefined;
  if (!response.ok) {
    const error = (json as { error?: { code?: string; message?: string; details?: unknown[] } } | undefined)?.error;
    // Only the stored session ending signs out: not a token passed in, nor one replaced while this request ran.
    if (response.status === 401 && token && ownToken && readToken() === token) {
      clearToken();
      for (const listener of unauthorizedListeners) listener();
    }
    throw new ApiError(
      response.status,
      error?.code ?? 'http_error',
      error?.message ?? `The shop answered ${response.status}. Please try again.`,
      error?.details,
    );
  }
  const schema = options.schema && 'load' in options.schema ? await options.schema.load() : options.schema;
  const data = schema ? schema.parse(json) : (json as T);
  return { data, headers: response.headers };
}

/**
 * A key for `Idempotency-Key`: crypto.randomUUID where the browser offers it (secure contexts), else the same
 * 122 random bits from getRandomValues, which every browser offers.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** How long to wait before the one retry: long enough for a proxy to route to another instance. */
const RETRY_DELAY_MS = 1000;

/**
 * A call that moves money or stock (placing an order, and later paying or refunding), made safe to retry: it
 * carries one Idempotency-Key for this submit, and when the network fails (the answer never came, so the server
 * may or may not have done it) it is sent once more with the same key. The server then either does it, or answers
 * what it did the first time; it never does it twice.
 */
export async function apiOnce<T>(
  path: string,
  options: ApiRequest<T>,
  /** The submit's key, when the form keeps one per state (see SubmitKeys); otherwise a fresh one per call. */
  idempotencyKey: string = newIdempotencyKey(),
): Promise<T> {
  const withKey = { ...options, headers: { ...options.headers, 'idempotency-key': idempotencyKey } };
  try {
    return await api(path, withKey);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'network_error') throw error;
    await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    return api(path, withKey);
  }
}

/**
 * One Idempotency-Key per state of a form: submitting the same state again (Enter pressed twice,
 * a second click before the page caught up) sends the same key, so the server does it once and replays its answer;
 * a changed form is a new request with a new key. The state is what the request sends, in a fixed key order.
 */
export class SubmitKeys {
  #last: { state: string; key: string } | null = null;

  keyFor(state: Record<string, unknown>): string {
    const serialised = JSON.stringify(state);
    if (this.#last?.state !== serialised) this.#last = { state: serialised, key: newIdempotencyKey() };
    return this.#last.key;
  }
}

/** Shorthand when only the body matters. */
export async function api<T>(path: string, options: ApiRequest<T> = {}): Promise<T> {
  return (await apiRequest(path, options)).data;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The address names nothing: a 404, or a 400 about the address itself (a malformed id, which can never name
 * anything either). Asking again cannot help; the page to show is the not-found page.
 */
export function namesNothing(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 404) return true;
  return (
    error.status === 400 &&
    (error.details ?? []).some((detail) => String((detail as { path?: unknown })?.path).startsWith('params.'))
  );
}

/**
 * Whether asking again may help: the network, the server's own failures (5xx) and "not now" answers (408, 429).
 * Any other 4xx is the same answer the next time, so no page offers to try again after one.
 */
export function worthRetrying(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status >= 500 || error.status === 408 || error.status === 429;
}

/** A sentence to show a person for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong. Please try again.';
}
