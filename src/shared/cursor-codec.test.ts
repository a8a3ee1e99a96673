import { describe, expect, it } from 'vitest';
import { type CursorPayload, decodeCursor, encodeCursor } from './cursor-codec.ts';

const id = '0b6f3a2e-8c1d-4e5f-9a7b-1c2d3e4f5a6b';

describe('cursors', () => {
  it.each<CursorPayload>([
    { o: 'catalogue', k: '2026-01-01T00:00:00.000001Z', i: id },
    { o: 'orders', k: '2026-11-26T23:59:59.999999Z', i: id },
    { o: 'price_desc', k: 0, i: id },
    { o: 'name', k: 'Bremsscheibe Ø 320 — 🏍', i: id },
    { o: 'name', k: 'x'.repeat(100), i: id },
    { o: 'price_asc', k: 1_000_000_000, i: id.toUpperCase() },
  ])('survive the round trip as URL-safe text (%o)', (payload) => {
    const text = encodeCursor(payload);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text)).toEqual(payload);
  });

  it('decode nothing they did not write', () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    for (const text of [
      '',
      'a',
      'a+b/',
      '%%%',
      b64('[]'),
      b64('null'),
      b64(JSON.stringify({ o: 'price_asc', k: 1.5, i: id })),
      b64(JSON.stringify({ o: 'price_asc', k: -1, i: id })),
      b64(JSON.stringify({ o: 'newest', k: '2026-01-01T00:00:00Z', i: id })),
      b64(JSON.stringify({ o: 'relevance', k: 1, i: id })),
      b64(JSON.stringify({ o: 'name', k: 'x', i: 'not-a-uuid' })),
      // Exactly o, k and i: none missing, none more.
      b64(JSON.stringify({ o: 'name', k: 'x' })),
      b64(JSON.stringify({ o: 'name', k: 'x', i: id, extra: 1 })),
      b64(`{"o":"name","k":"x","i":"${id}","__proto__":{}}`),
      // The key of the type and range its order sorts by.
      b64(JSON.stringify({ o: 'price_asc', k: 1_000_000_001, i: id })),
      b64(JSON.stringify({ o: 'price_asc', k: '5', i: id })),
      b64(JSON.stringify({ o: 'name', k: 'x'.repeat(101), i: id })),
      b64(JSON.stringify({ o: 'name', k: 7, i: id })),
      b64(JSON.stringify({ o: 'orders', k: '2026-13-01T00:00:00.000000Z', i: id })),
      b64(JSON.stringify({ o: 'catalogue', k: '2026-02-30T00:00:00.000000Z', i: id })),
      Buffer.from([0xff, 0xfe, 0x7b]).toString('base64url'),
      'A'.repeat(301),
    ]) {
      expect(decodeCursor(text), text).toBeUndefined();
    }
  });
});
