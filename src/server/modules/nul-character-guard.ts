import type { FastifyRequest } from 'fastify';
import { InvalidError } from '../errors.ts';

const NUL = '\u0000';

/** The first place in a parsed value holding a NUL character, as `body.review` / `query.q`, or undefined. */
function nulPath(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? path : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulPath(item, `${path}.${index}`);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    // Raw bodies (the Stripe webhook's Buffer) are bytes, not text to store. Query and params objects have a
    // prototype of their own, so only byte views are skipped.
    if (ArrayBuffer.isView(value)) return undefined;
    for (const [key, item] of Object.entries(value)) {
      const found = nulPath(item, `${path}.${key}`) ?? (key.includes(NUL) ? `${path}.${key}` : undefined);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * preValidation hook: PostgreSQL text cannot hold U+0000, so a NUL anywhere in a path, query or body would reach the
 * database as an error (a 500). No shop text needs one; it is refused up front as invalid input.
 */
export async function refuseNulCharacters(request: FastifyRequest): Promise<void> {
  const path =
    nulPath(request.params, 'params') ?? nulPath(request.query, 'query') ?? nulPath(request.body, 'body') ?? undefined;
  if (path) {
    throw new InvalidError(`Text cannot contain a NUL character (${path}).`, [
      { path, message: 'Text cannot contain a NUL character' },
    ]);
  }
}
