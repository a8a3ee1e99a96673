import { describe, expect, it } from 'vitest';
import { detectDelimiter } from './csv-delimiter.ts';

describe('detectDelimiter', () => {
  it('reads the separator from the header row', () => {
    expect(detectDelimiter('mpn,name,price\nA;B,1')).toBe(',');
    expect(detectDelimiter('mpn;name;price\r\nA,1;B;2,50')).toBe(';');
    expect(detectDelimiter('\uFEFFmpn\tname\tprice\n')).toBe('\t');
  });

  it('ignores separators inside quotes, and falls back to a comma', () => {
    expect(detectDelimiter('"a,b,c";"d";"e"\n')).toBe(';');
    expect(detectDelimiter('mpn\n1,2,3')).toBe(',');
    expect(detectDelimiter('')).toBe(',');
  });
});
