import { z } from 'zod';
import { CURSOR_MAX_LENGTH, type CursorOrder, decodeCursor } from './cursor-codec.ts';

/**
 * The rules of queries that page by cursor, as zod: the cursor itself (what it is, how it is written and
 * read) is `cursor-codec.ts`, without zod, re-exported here for the server.
 */
export {
  CURSOR_MAX_LENGTH,
  type CursorOrder,
  type CursorPayload,
  cursorOrders,
  decodeCursor,
  encodeCursor,
} from './cursor-codec.ts';

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
