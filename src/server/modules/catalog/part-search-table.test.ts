import { describe, expect, it } from 'vitest';
import { KeptRows, SearchColumns } from './part-search-table.ts';
import { parseTsvector, rankOrTerm, trigramsOf } from './pg-text-rank.ts';

/**
 * The search columns keep each row's lexemes, rank terms and name trigrams in shared pools (part-search-table.ts):
 * rows rewritten again and again (prices do not do that, renames and new descriptions do) must read back their
 * latest values, through the pools' growth and their rewriting in row order.
 */
describe('search columns', () => {
  const vector = (row: number, round: number) =>
    `'brake':${1 + (row % 3)}A,${5 + round}C 'pad':2A 'r${row}':3B${round % 2 === 0 ? ` 'even':${4 + round}C` : ''}`;
  const name = (row: number, round: number) => `Part ${row} round ${round}`;

  it('reads back every row as last written, after thousands of rewrites', () => {
    const columns = new SearchColumns();
    const rows = 700;
    const rounds = 10;
    for (let round = 0; round < rounds; round++) {
      // Every other round rewrites only some rows, so old and new slices interleave.
      for (let row = 0; row < rows; row++) {
        if (round > 0 && round % 2 === 1 && row % 3 !== 0) continue;
        columns.put(
          row,
          { name: name(row, round), partNumbers: [`n${row}`], searchVector: vector(row, round) },
          round === 0,
        );
      }
      // Each lexeme's terms asked for between rounds: what is kept of them must follow the rewrites.
      for (const lexeme of ['brake', 'pad', 'even']) columns.termsOfLexeme(columns.lexemeIndex.get(lexeme) ?? -1);
    }
    // The last round is odd: rows of the third rewrote in it, the others last in the round before.
    const lastRound = (row: number) => (row % 3 === 0 ? rounds - 1 : rounds - 2);
    const ids = ['brake', 'pad', 'even', 'missing'].map((lexeme) => columns.lexemeIndex.get(lexeme) ?? -1);
    const termOf = (id: number, row: number) => {
      const kept = columns.termsOfLexeme(id);
      const at = kept ? kept.rows.indexOf(row) : -1;
      return kept && at >= 0 ? kept.terms[at] : Number.NaN;
    };
    for (let row = 0; row < rows; row++) {
      const round = lastRound(row);
      const parsed = parseTsvector(vector(row, round));
      const terms = ids.map((id) => termOf(id, row));
      const expected = ['brake', 'pad', 'even', 'missing'].map((lexeme) => {
        const positions = parsed.get(lexeme);
        return positions ? rankOrTerm(positions, 0, positions.length) : Number.NaN;
      });
      expect(terms, `row ${row}`).toEqual(expected);
      const { at, count, ints } = columns.trigrams;
      const start = at[row] as number;
      const trigrams = [...ints.subarray(start, start + (count[row] as number))];
      const byId = new Map([...columns.trigramIndex].map(([trigram, id]) => [id, trigram]));
      expect(
        trigrams.map((id) => byId.get(id)),
        `row ${row}`,
      ).toEqual(trigramsOf(name(row, round)));
      expect(columns.isEmptyDocument(row)).toBe(false);
      expect(columns.rowsWith(`r${row}`)).toEqual([row]);
    }
    expect(new Set(columns.rowsWith('even')).size).toBe(columns.rowsWith('even').length);
  });

  it('keeps lists of rows up to a budget of rows, then forgets them all', () => {
    const kept = new KeptRows<number>(10);
    kept.set('a', 1, Int32Array.of(1, 2, 3, 4));
    kept.set('b', 1, Int32Array.of(5, 6, 7, 8));
    expect(kept.get('a', 1)).toEqual(Int32Array.of(1, 2, 3, 4));
    expect(kept.get('a', 2)).toBeUndefined();
    // Replacing a list frees its rows first.
    kept.set('a', 2, Int32Array.of(9, 9, 9, 9, 9, 9));
    expect(kept.get('b', 1)).toEqual(Int32Array.of(5, 6, 7, 8));
    kept.set('c', 1, Int32Array.of(1));
    expect(kept.get('a', 2)).toBeUndefined();
    expect(kept.get('b', 1)).toBeUndefined();
    expect(kept.get('c', 1)).toEqual(Int32Array.of(1));
  });
});
