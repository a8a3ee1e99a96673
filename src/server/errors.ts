import type { FastifyBaseLogger, FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';

/** Domain errors: services throw these; one handler maps them to HTTP and the one error shape. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly details: unknown[] | undefined;
  constructor(statusCode: number, code: string, message: string, details?: unknown[]) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
    this.details = details;
  }
}

export class InvalidError extends AppError {
  constructor(message: string, details?: unknown[]) {
    super(400, 'invalid_data', message, details);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'Please sign in to continue.', code = 'not_signed_in') {
    super(401, code, message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message = 'You are not allowed to do this.') {
    super(403, 'forbidden', message);
  }
}
export class NotFoundError extends AppError {
  constructor(message = 'Not found.') {
    super(404, 'not_found', message);
  }
}
export class ConflictError extends AppError {
  constructor(message: string, code = 'conflict') {
    super(409, code, message);
  }
}
export class BusinessRuleError extends AppError {
  constructor(code: string, message: string, details?: unknown[]) {
    super(422, code, message, details);
  }
}

/** Try again later: a dependency is down or slow, or the server sheds load. Answered with `Retry-After`. */
export class ServiceUnavailableError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(
    message = 'The shop is briefly unavailable. Please try again in a few seconds.',
    retryAfterSeconds = 5,
    statusCode = 503,
    code = 'service_unavailable',
  ) {
    super(statusCode, code, message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * The request was not answered within its deadline (request-deadline.ts): what it waited on (a hung database, a
 * queue) is unavailable as far as the client can tell. Its work may still finish behind the answer.
 */
export class DeadlineExceededError extends ServiceUnavailableError {}

/** The disk holding the embedded database is below its floor: writes are refused before they could wedge it. */
export class InsufficientStorageError extends ServiceUnavailableError {
  constructor() {
    super(
      'The shop cannot save anything right now (its disk is full). Please try again later.',
      60,
      507,
      'insufficient_storage',
    );
  }
}

/**
 * PostgreSQL error classes that mean "not now" rather than "never": connection exceptions (08…), shutdown and
 * cannot-connect-now (57P01–57P03), a statement cancelled by `statement_timeout` (57014), a transaction ended by
 * `idle_in_transaction_session_timeout` (25P03), lock timeouts (55P03), too many connections and other resource
 * shortages (53…, but 53100 disk full is 507), serialization failures and deadlocks (40001, 40P01).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|57014|25P03|55P03|53[0-9A-Z]{3}|40001|40P01)$/;
/** Node's and the drivers' words for a database or network that does not answer. */
const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|Query read timeout|not queryable|Cannot use a pool after calling end|PGlite is clos(ed|ing)/i;

/**
 * The error, or one of its causes, says the database (or the network to it) is unavailable or too slow: such a
 * failure is answered 503 with `Retry-After` (507 for a full disk), never 500. Undefined for any other error.
 */
export function unavailability(error: unknown, depth = 0): ServiceUnavailableError | undefined {
  if (!error || typeof error !== 'object' || depth > 5) return undefined;
  if (error instanceof ServiceUnavailableError) return error;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (code === '53100') return new InsufficientStorageError();
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_NODE_CODES.has(code))) {
    return new ServiceUnavailableError(undefined, code.startsWith('40') ? 1 : 5);
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return new ServiceUnavailableError();
  const inner = unavailability(cause, depth + 1);
  if (inner) return inner;
  if (Array.isArray(errors)) {
    for (const each of errors) {
      const found = unavailability(each, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * One log line per outage, not one per request: during a 10 s database stop thousands of requests fail the same
 * way. The first failure is logged with its error; later ones within the interval are counted into the next line.
 */
class OutageLog {
  #lastAt = 0;
  #suppressed = 0;
  readonly #intervalMs: number;
  constructor(intervalMs: number) {
    this.#intervalMs = intervalMs;
  }
  note(log: FastifyBaseLogger, error: unknown, answer: ServiceUnavailableError): void {
    const now = Date.now();
    if (now - this.#lastAt < this.#intervalMs) {
      this.#suppressed += 1;
      return;
    }
    const suppressed = this.#suppressed;
    this.#lastAt = now;
    this.#suppressed = 0;
    log.warn({ err: error, status: answer.statusCode, suppressed }, 'dependency unavailable; answered 503/507');
  }
}

const codeByStatus: Record<number, string> = {
  400: 'invalid_data',
  401: 'not_signed_in',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  409: 'conflict',
  413: 'too_large',
  415: 'unsupported_media_type',
  422: 'business_rule',
  429: 'rate_limited',
};

export function errorBody(code: string, message: string, details?: unknown[]) {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

export function registerErrorHandling(app: FastifyInstance): void {
  const outages = new OutageLog(10_000);
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const unavailable = unavailability(error);
    if (unavailable) {
      // Expected refusals (the disk floor, load shedding) are not outages worth a line each; the others are, a
      // passed deadline too (something the request waited on hangs).
      if (unavailable !== error || error instanceof DeadlineExceededError)
        outages.note(request.log, error, unavailable);
      reply.header('retry-after', String(unavailable.retryAfterSeconds));
      return reply.status(unavailable.statusCode).send(errorBody(unavailable.code, unavailable.message));
    }
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send(errorBody(error.code, error.message, error.details));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        // instancePath is '' for the whole body, '/items/0/name' for a field inside it.
        path: `${error.validationContext ?? 'body'}${issue.instancePath.replaceAll('/', '.')}`.replace(/\.$/, ''),
        message: issue.message,
      }));
      // The message is for a person (forms show it as it is): the sentence alone. Which field it is about stays in
      // `details[].path`, where the web app reads it to put the message under that field.
      const message = details[0]?.message || 'The request is not valid.';
      return reply.status(400).send(errorBody('invalid_data', message, details));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send(errorBody('internal_error', 'Something went wrong on our side.'));
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status === 503) {
      // A plugin's own "try later" (e.g. a closing server): the one shape, with Retry-After.
      if (!reply.hasHeader('retry-after')) reply.header('retry-after', '5');
      return reply.status(503).send(errorBody('service_unavailable', new ServiceUnavailableError().message));
    }
    if (status >= 400 && status < 500) {
      // Fastify's own 4xx (malformed JSON, body too large, wrong content type, rate limit): keep the status,
      // give it the one shape, and a sentence a person can read.
      const code = codeByStatus[status] ?? 'bad_request';
      const message =
        status === 413 ? 'The request is too large.' : status === 429 ? error.message : humanise(error.message);
      if (status === 429) {
        return reply.status(429).send(errorBody('rate_limited', message));
      }
      return reply.status(status).send(errorBody(code, message));
    }
    // Never leak a stack or SQL; the log has it, tied to the request id the client can quote.
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .send(errorBody('internal_error', `Something went wrong on our side (request ${request.id}).`));
  });
}

function humanise(message: string): string {
  if (!message) return 'The request is not valid.';
  return message.endsWith('.') ? message : `${message}.`;
}
