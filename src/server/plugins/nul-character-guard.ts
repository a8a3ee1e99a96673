import type { FastifyRequest } from 'fastify';
import { InvalidError } from '../errors.ts';

const NUL = '\u0000';

/**
 * The first place in a parsed value holding a NUL character, as `body.review` / `query.q`, or undefined. Walks with
 * its own stack, not recursion: a 64 KiB body can nest 30,000 levels deep.
 */
function nulPath(root: unknown, rootPath: string): string | undefined {
  const pending: [unknown, string][] = [[root, rootPath]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      if (value.includes(NUL)) return path;
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => {
        pending.push([item, `${path}.${index}`]);
      });
    } else if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
      // Raw bodies (the Stripe webhook's Buffer) are bytes, not text to store. Query and params objects have a
      // prototype of their own, so only byte views are skipped.
      for (const [key, item] of Object.entries(value)) {
        if (key.includes(NUL)) return `${path}.${key}`;
        pending.push([item, `${path}.${key}`]);
      }
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
    throw new InvalidError('Text cannot contain a NUL character.', [
      { path, message: 'Text cannot contain a NUL character' },
    ]);
  }
}
