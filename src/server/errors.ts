import type { FastifyError, FastifyInstance } from 'fastify';
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

const codeByStatus: Record<number, string> = {
  400: 'invalid_data',
  401: 'not_signed_in',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
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
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send(errorBody(error.code, error.message, error.details));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        // instancePath is '' for the whole body, '/items/0/name' for a field inside it.
        path: `${error.validationContext ?? 'body'}${issue.instancePath.replaceAll('/', '.')}`.replace(/\.$/, ''),
        message: issue.message,
      }));
      const first = details[0];
      const message = first ? `${first.message} (${first.path})` : 'The request is not valid.';
      return reply.status(400).send(errorBody('invalid_data', message, details));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send(errorBody('internal_error', 'Something went wrong on our side.'));
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
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
