/**
 * Keyset (cursor) paging: a cursor names a position in one sort order of one list, as the sort key of a
 * row and its id (the tie-breaker). It travels as base64url of a small JSON object, so it is opaque to clients
 * but not secret: it holds nothing the list does not show. It is not signed either: an edited cursor that still
 * decodes to a well-formed position of the same order is simply another position (it can reveal or change nothing),
 * while anything else (not base64url, not JSON, a key of the wrong type, another order's cursor) is refused as 400.
 *
 * Without zod on purpose: the parts list checks a cursor from the address before its first render, and zod (a large
 * download, and its evaluation) would then load with every server-rendered parts list (ADR 018: answer schemas on
 * demand). The query rules built on
 * it, with zod, are in cursor.ts.
 */

/**
 * The orders a cursor can belong to: the parts list's sorts ('catalogue' is its default, oldest first), the order
 * lists, the users list (oldest account first).
 */
export const cursorOrders = ['catalogue', 'newest', 'price_asc', 'price_desc', 'name', 'orders', 'users'] as const;
export type CursorOrder = (typeof cursorOrders)[number];

/** A position: the order (`o`), the row's sort key (`k`) and its id (`i`). */
export type CursorPayload =
  | { o: 'catalogue' | 'newest' | 'orders' | 'users'; k: string; i: string }
  | { o: 'price_asc' | 'price_desc'; k: number; i: string }
  | { o: 'name'; k: string; i: string };

/** Longer than any cursor this server writes (a 20-character name, a uuid): refused before decoding. */
export const CURSOR_MAX_LENGTH = 300;

/** The longest name key (a part's name is at most 100 characters). */
const NAME_KEY_MAX = 100;
const PRICE_KEY_MAX = 1_000_000_000;
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/**
 * A timestamp as the database keeps it, to the microsecond (a JS Date would lose them and skip or repeat rows), and a
 * real instant: the calendar gives back the same digits (no 13th month, no 25th hour).
 */
function isTimestampKey(key: unknown): key is string {
  if (typeof key !== 'string' || !TIMESTAMP.test(key)) return false;
  const ms = Date.parse(`${key.slice(0, 23)}Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 23) === key.slice(0, 23);
}

/** The payload's rules: exactly `o`, `k` and `i`, the key of the type and range its order sorts by, the id a uuid. */
function readPayload(value: unknown): CursorPayload | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const fields = value as Record<string, unknown>;
  const keys = Object.keys(fields);
  if (keys.length !== 3 || !('o' in fields && 'k' in fields && 'i' in fields)) return undefined;
  const { o, k, i } = fields;
  if (typeof i !== 'string' || !GUID.test(i)) return undefined;
  switch (o) {
    case 'catalogue':
    case 'newest':
    case 'orders':
    case 'users':
      return isTimestampKey(k) ? { o, k, i } : undefined;
    case 'price_asc':
    case 'price_desc':
      return typeof k === 'number' && Number.isInteger(k) && k >= 0 && k <= PRICE_KEY_MAX ? { o, k, i } : undefined;
    case 'name':
      return typeof k === 'string' && k.length <= NAME_KEY_MAX ? { o, k, i } : undefined;
    default:
      return undefined;
  }
}

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
    return readPayload(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)));
  } catch {
    return undefined;
  }
}
