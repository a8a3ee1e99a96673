import { z } from 'zod';

/**
 * Keyset (cursor) paging (issue 15): a cursor names a position in one sort order of one list, as the sort key of a
 * row and its id (the tie-breaker). It travels as base64url of a small JSON object, so it is opaque to clients
 * but not secret: it holds nothing the list does not show. It is not signed either: an edited cursor that still
 * decodes to a well-formed position of the same order is simply another position (it can reveal or change nothing),
 * while anything else (not base64url, not JSON, a key of the wrong type, another order's cursor) is refused as 400.
 */

/** The orders a cursor can belong to: the parts list's sorts ('catalogue' is its default, oldest first), the order lists. */
export const cursorOrders = ['catalogue', 'newest', 'price_asc', 'price_desc', 'name', 'orders'] as const;
export type CursorOrder = (typeof cursorOrders)[number];

/** A timestamp as the database keeps it, to the microsecond (a JS Date would lose them and skip or repeat rows). */
const timestampKey = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
  // A real instant: the calendar gives back the same digits (no 13th month, no 25th hour).
  .refine((key) => {
    const ms = Date.parse(`${key.slice(0, 23)}Z`);
    return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 23) === key.slice(0, 23);
  });
const id = z.guid();

export const cursorPayloadSchema = z.discriminatedUnion('o', [
  z.strictObject({ o: z.enum(['catalogue', 'newest', 'orders']), k: timestampKey, i: id }),
  z.strictObject({ o: z.enum(['price_asc', 'price_desc']), k: z.number().int().min(0).max(1_000_000_000), i: id }),
  z.strictObject({ o: z.literal('name'), k: z.string().max(100), i: id }),
]);
export type CursorPayload = z.infer<typeof cursorPayloadSchema>;

/** Longer than any cursor this server writes (a 20-character name, a uuid): refused before decoding. */
export const CURSOR_MAX_LENGTH = 300;

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

export function encodeCursor(payload: CursorPayload): string {
  return toBase64Url(new TextEncoder().encode(JSON.stringify(payload)));
}

/** The position a cursor names; undefined for anything this server did not (or could not) have written. */
export function decodeCursor(text: string): CursorPayload | undefined {
  if (text.length === 0 || text.length > CURSOR_MAX_LENGTH) return undefined;
  const bytes = fromBase64Url(text);
  if (!bytes) return undefined;
  try {
    const json: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    const parsed = cursorPayloadSchema.safeParse(json);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export const cursorMessages = {
  invalid: 'Provide A Valid Cursor',
  otherOrder: 'This Cursor Belongs To Another Sort Order',
  both: 'Page After Or Before A Cursor, Not Both',
  withOffset: 'Page By Cursor Or By Offset, Not Both',
  relevance: 'A Search Ordered By Relevance Pages By Offset',
} as const;

/** A query's `after`/`before` field: a cursor this server wrote (its order is checked against the query's). */
export const cursorQuery = z
  .string()
  .max(CURSOR_MAX_LENGTH, cursorMessages.invalid)
  .refine((text) => decodeCursor(text) !== undefined, cursorMessages.invalid)
  .describe('An opaque cursor from a previous answer (nextCursor / prevCursor, Link, X-Next-Cursor)');

interface CursorQueryFields {
  after?: string | undefined;
  before?: string | undefined;
  offset?: number | undefined;
}

/**
 * The rules a query with cursor fields must keep, as zod issues: one cursor at most, not with an offset, and of the
 * order the query asks for (`order` undefined: this query cannot page by cursor, e.g. a search by relevance).
 */
export function checkCursorQuery(query: CursorQueryFields, order: CursorOrder | undefined, ctx: z.RefinementCtx): void {
  const { after, before, offset } = query;
  if (after !== undefined && before !== undefined) {
    ctx.addIssue({ code: 'custom', message: cursorMessages.both, path: ['before'] });
    return;
  }
  const field = after !== undefined ? 'after' : before !== undefined ? 'before' : undefined;
  if (field === undefined) return;
  if (offset !== undefined) {
    ctx.addIssue({ code: 'custom', message: cursorMessages.withOffset, path: ['offset'] });
    return;
  }
  if (order === undefined) {
    ctx.addIssue({ code: 'custom', message: cursorMessages.relevance, path: [field] });
    return;
  }
  const payload = decodeCursor(query[field] ?? '');
  if (payload && payload.o !== order)
    ctx.addIssue({ code: 'custom', message: cursorMessages.otherOrder, path: [field] });
}
