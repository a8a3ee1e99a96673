import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;
type LogLevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * What the logs may hold: never personal data or secrets. Two layers:
 * - errors are serialised from a list of safe fields (a database error keeps its code, constraint, table and the
 *   statement's text, never its parameters, its `detail` "Key (email)=(…)" line or a value quoted in its message);
 * - fields that hold personal data or secrets are written as `[redacted]` wherever they appear in the first three
 *   levels of a log line (pino's redaction has no "any depth", and deeper objects are not logged).
 */

/** Field names whose values are personal data or secrets (exact names: pino redacts by path, not by pattern). */
const SENSITIVE_FIELDS = [
  'password',
  'passwordHash',
  'password_hash',
  'newPassword',
  'currentPassword',
  'oldPassword',
  'token',
  'tokenHash',
  'token_hash',
  'accessToken',
  'refreshToken',
  'idToken',
  'resetToken',
  'secret',
  'sessionSecret',
  'clientSecret',
  'client_secret',
  'apiKey',
  'email',
  'to',
  'recipient',
  'name',
  'displayName',
  'display_name',
  'userName',
  'user_name',
  'address',
  'phone',
  'phoneNumber',
  'phonenumber',
  'phone_number',
];

export const redactedPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'res.headers["set-cookie"]',
  ...SENSITIVE_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
];

/** Error fields that name what failed without carrying what was sent. */
const SAFE_ERROR_FIELDS = [
  'code',
  'severity',
  'constraint',
  'table',
  'column',
  'schema',
  'dataType',
  'routine',
  'statusCode',
  'errno',
  'syscall',
  'retryAfterSeconds',
] as const;

const MAX_QUERY_CHARS = 2000;
const MAX_DEPTH = 5;

/**
 * A message without the values it may quote: Drizzle appends `params: …` to its message, and PostgreSQL quotes the
 * offending value after a colon (`invalid input syntax for type uuid: "…"`), while names it quotes follow a word
 * (`constraint "users_email_unique"`), so those stay.
 */
export function scrubMessage(message: string): string {
  return message
    .replace(/\n?params: [\s\S]*$/, '\nparams: [redacted]')
    .replace(/: "(?:[^"\\]|\\.)*"/g, ': "[redacted]"');
}

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  stack?: unknown;
  query?: unknown;
  cause?: unknown;
  errors?: unknown;
  [key: string]: unknown;
}

/** pino's `err` serializer, made safe: a list of fields in, never the parameters, `detail` or `where` of SQL. */
export function serializeError(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'string' ? scrubMessage(value) : value;
  }
  const error = value as ErrorLike;
  const type = value instanceof Error ? value.constructor.name : 'Object';
  let message = typeof error.message === 'string' ? scrubMessage(error.message) : '';
  // Drizzle repeats the statement in its message; it is logged once, as `query`.
  if (typeof error.query === 'string' && message.startsWith('Failed query: ')) message = 'Failed query';
  const out: Record<string, unknown> = { type, message };
  for (const field of SAFE_ERROR_FIELDS) {
    const fieldValue = error[field];
    if (typeof fieldValue === 'string' || typeof fieldValue === 'number') out[field] = fieldValue;
  }
  // The statement's text (placeholders, not values): what an operator needs to find the failing query.
  if (typeof error.query === 'string') out.query = error.query.slice(0, MAX_QUERY_CHARS);
  if (typeof error.stack === 'string') {
    const frames = error.stack
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .join('\n');
    out.stack = frames ? `${type}: ${message}\n${frames}` : `${type}: ${message}`;
  }
  if (depth < MAX_DEPTH) {
    if (error.cause !== undefined) out.cause = serializeError(error.cause, depth + 1);
    if (Array.isArray(error.errors)) out.errors = error.errors.map((inner) => serializeError(inner, depth + 1));
  }
  return out;
}

/**
 * Paths whose query strings carry credentials: Google's callback brings a one-time code and the state that binds it
 * to the browser, and whoever reads them from a log line could finish that sign-in. Their whole query is dropped.
 */
const CREDENTIAL_QUERY_PATHS = /^\/api\/auth\//i;
/** Searches for people (the admin's users and orders lists): their `q` is a customer's name or email. */
const PEOPLE_SEARCH_PATHS = /^\/api\/(?:user|allorder)$/i;
const SEARCH_PARAMETER = /([?&]q=)[^&#]*/gi;
/** Query parameters that are credentials wherever they appear (a reset or verification link's token, for one). */
const CREDENTIAL_PARAMETERS = /([?&](?:code|state|token|access_token|id_token|password|secret|key)=)[^&#]*/gi;

/**
 * A URL as logged: an email in its path or query (`/api/user/:email`, `?email=`) and the search of a people list
 * (a name) are personal data, and the query of an auth route or a credential parameter anywhere is a secret.
 */
export function scrubUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt >= 0 && CREDENTIAL_QUERY_PATHS.test(url.slice(0, queryAt))) {
    return `${scrubUrl(url.slice(0, queryAt))}?[redacted]`;
  }
  const searched =
    queryAt >= 0 && PEOPLE_SEARCH_PATHS.test(url.slice(0, queryAt))
      ? url.replace(SEARCH_PARAMETER, '$1[redacted]')
      : url;
  return searched.replace(/[^/?&=]*(?:@|%40)[^/?&=#]*/gi, '[redacted]').replace(CREDENTIAL_PARAMETERS, '$1[redacted]');
}

interface LoggedRequest {
  method: string;
  url: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer, with the URL scrubbed. */
function serializeRequest(request: LoggedRequest) {
  return {
    method: request.method,
    url: scrubUrl(request.url),
    host: request.hostname,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The pino options that make the two layers above apply to every line the app writes. */
export function safeLoggerOptions(level: string): FastifyServerOptions['logger'] {
  const options = {
    level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    serializers: {
      err: (error: unknown) => serializeError(error),
      error: (error: unknown) => serializeError(error),
      req: serializeRequest,
    },
    formatters: {
      // Other code logs failures as plain strings (`{ error: failureMessage(e) }`): those are scrubbed too.
      log: (object: Record<string, unknown>) => {
        for (const [key, value] of Object.entries(object)) {
          if (typeof value === 'string' && value.includes('params: ')) object[key] = scrubMessage(value);
        }
        return object;
      },
    },
  };
  // Fastify types each serializer by its own request and error types; these take whatever they are handed.
  return options as unknown as FastifyServerOptions['logger'];
}

/**
 * Fastify's `childLoggerFactory`: a request's logger, made on its first line. pino's `child()` runs the redaction of
 * every path above (wildcards among them) over the child's bindings, a visible share of a cached catalogue read's
 * CPU in a profile, for a logger most requests never write to below `info`. A line at a level the parent
 * writes creates the real child (with the request id) and goes through it, so what is logged is unchanged.
 */
export function lazyChildLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  // Fastify's own logger when logging is off has no levels to ask; a route's own level needs the real child.
  if (typeof (parent as { isLevelEnabled?: unknown }).isLevelEnabled !== 'function' || options.level !== undefined) {
    return parent.child(bindings, options);
  }
  return new LazyChildLogger(parent as LevelledLogger, bindings, options);
}

type LevelledLogger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

class LazyChildLogger implements FastifyBaseLogger {
  readonly #parent: LevelledLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: LevelledLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #real(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  get level(): string {
    return (this.#child ?? this.#parent).level;
  }

  set level(level: string) {
    this.#real().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.#write('error', args);
  }

  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }

  info(...args: unknown[]): void {
    this.#write('info', args);
  }

  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }

  silent(): void {}

  #write(level: LogLevelName, args: unknown[]): void {
    const writer = this.#child ?? (this.#parent.isLevelEnabled(level) ? this.#real() : undefined);
    if (writer) (writer[level] as (...line: unknown[]) => void)(...args);
  }
}
