/**
 * PostgreSQL's relevance functions, computed in JavaScript with the same arithmetic (ADR 020): `ts_rank` of a
 * tsvector by a tsquery of lexemes, and pg_trgm's `word_similarity`. The in-memory search (part-search-memory.ts)
 * ranks its candidates with these, so its order is the order the SQL search (`relevance` in part-search.ts) gives;
 * `search-memory.test.ts` compares both with PostgreSQL's own answers. The C code computes in single precision (float4);
 * `Math.fround` stands for each of its float steps.
 */

const f = Math.fround;

/** A lexeme's positions, each packed as `position * 4 + weight` (weight: D 0, C 1, B 2, A 3), in the vector's order. */
export type PackedPositions = readonly number[] | Uint16Array;

/**
 * A quoted lexeme of a tsvector's or tsquery's text, its quote at `start` (`''` is a quote, a backslash escapes the
 * next character); undefined when the quote never closes. `end` is just past the closing quote.
 */
function readQuoted(text: string, start: number): { value: string; end: number } | undefined {
  let value = '';
  let i = start + 1;
  for (;;) {
    const c = text[i];
    if (c === undefined) return undefined;
    if (c === "'" && text[i + 1] === "'") {
      value += "'";
      i += 2;
    } else if (c === '\\' && i + 1 < text.length) {
      value += text[i + 1];
      i += 2;
    } else if (c === "'") {
      return { value, end: i + 1 };
    } else {
      value += c;
      i += 1;
    }
  }
}

/**
 * A tsvector's text (`'brake':1A,5 'pad':2A`) → its lexemes with packed positions. A lexeme without positions gets
 * none (ts_rank then counts it as one position of weight D, as PostgreSQL does).
 */
export function parseTsvector(text: string): Map<string, number[]> {
  const lexemes = new Map<string, number[]>();
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && text[i] === ' ') i += 1;
    if (i >= n || text[i] !== "'") break;
    const quoted = readQuoted(text, i);
    if (!quoted) return lexemes;
    const lexeme = quoted.value;
    i = quoted.end;
    const positions: number[] = [];
    if (text[i] === ':') {
      i += 1;
      for (;;) {
        let position = 0;
        while (i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) {
          position = position * 10 + text.charCodeAt(i) - 48;
          i += 1;
        }
        const weight = text[i] === 'A' ? 3 : text[i] === 'B' ? 2 : text[i] === 'C' ? 1 : 0;
        if (text[i] === 'A' || text[i] === 'B' || text[i] === 'C' || text[i] === 'D') i += 1;
        positions.push(position * 4 + weight);
        if (text[i] !== ',') break;
        i += 1;
      }
    }
    lexemes.set(lexeme, positions);
  }
  return lexemes;
}

/**
 * `plainto_tsquery`'s text (`'front-brak' & 'front' & 'brake'`) → its lexemes; undefined when it says more than
 * "all of these" (an operator other than `&`, a weight or a prefix), which the in-memory search does not answer.
 */
export function parseTsquery(text: string): string[] | undefined {
  const lexemes: string[] = [];
  let i = 0;
  const n = text.length;
  let expectOperand = true;
  while (i < n) {
    const c = text[i];
    if (c === ' ') {
      i += 1;
    } else if (expectOperand && c === "'") {
      const quoted = readQuoted(text, i);
      if (!quoted) return undefined;
      i = quoted.end;
      if (text[i] === ':') return undefined;
      lexemes.push(quoted.value);
      expectOperand = false;
    } else if (!expectOperand && c === '&') {
      i += 1;
      expectOperand = true;
    } else {
      return undefined;
    }
  }
  return lexemes.length > 0 && !expectOperand ? lexemes : undefined;
}

/** `'{0.1, 0.2, 0.4, 1.0}'` as float4, by weight D, C, B, A (the weights `relevance` passes to ts_rank). */
export const RANK_WEIGHTS = [f(0.1), f(0.2), f(0.4), f(1.0)] as const;

/** tsCompareString: bytewise, the shorter first on a common prefix (the order ts_rank sums its operands in). */
function compareLexemes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** The operands as ts_rank takes them: sorted and each once (SortAndUniqItems). */
export function rankOperands(lexemes: readonly string[]): string[] {
  return [...new Set(lexemes)].sort(compareLexemes);
}

const MAXENTRYPOS = 1 << 14;

function wordDistance(distance: number): number {
  if (distance > 100) return f(1e-30);
  return f(1.0 / (1.005 + 0.05 * Math.exp(f(distance) / 1.5 - 2)));
}

/**
 * `ts_rank(weights, vector, query)` with normalization 0, for a query of operands (`rankOperands`) joined by `|`
 * (`and` false: `calc_rank_or`) or by `&` (`and` true: `calc_rank_and`, what a single word of several lexemes
 * gives). `positions` holds each operand's packed positions in the vector, in the operands' order, undefined when
 * the vector lacks it; `empty` is true for an empty vector (rank 0).
 */
export function tsRank(positions: readonly (PackedPositions | undefined)[], and: boolean, empty = false): number {
  const buffer: number[] = [];
  const spans = new Int32Array(positions.length * 2).fill(-1);
  positions.forEach((found, o) => {
    if (found === undefined) return;
    spans[2 * o] = buffer.length;
    buffer.push(...found);
    spans[2 * o + 1] = buffer.length;
  });
  return tsRankOfSpans(buffer, spans, and, empty);
}

/**
 * `tsRank` where operand o's positions are `buffer[spans[2o] .. spans[2o + 1])` (`spans[2o]` -1: absent), so a
 * search ranking a thousand parts makes no array per part and operand.
 */
export function tsRankOfSpans(buffer: ArrayLike<number>, spans: Int32Array, and: boolean, empty: boolean): number {
  const count = spans.length / 2;
  if (empty || count === 0) return 0;
  let res = and && count >= 2 ? rankAnd(buffer, spans) : rankOr(buffer, spans);
  if (res < 0) res = f(1e-20);
  return res;
}

function rankOr(buffer: ArrayLike<number>, spans: Int32Array): number {
  const count = spans.length / 2;
  let res = f(0);
  for (let o = 0; o < count; o++) {
    const start = spans[2 * o] as number;
    if (start >= 0) res = f(res + rankOrTerm(buffer, start, spans[2 * o + 1] as number));
  }
  return f(res / count);
}

/**
 * One operand's part of `calc_rank_or`: what its positions `buffer[start .. end)` in the vector add to the sum (a
 * double, as C computes it before the sum is stored as a float). It depends on the part alone, so the search keeps
 * it per lexeme of each part (part-search-table.ts) and `rankOrOfTerms` adds the operands' terms.
 */
export function rankOrTerm(buffer: ArrayLike<number>, start: number, end: number): number {
  let resj = f(0);
  let wjm = f(-1);
  let jm = 0;
  // No positions: one of weight D (PostgreSQL's POSNULL).
  const n = end > start ? end - start : 1;
  for (let j = 0; j < n; j++) {
    const w = RANK_WEIGHTS[end > start ? (buffer[start + j] as number) & 3 : 0] as number;
    resj = f(resj + f(w / ((j + 1) * (j + 1))));
    if (w > wjm) {
      wjm = w;
      jm = j;
    }
  }
  return f(f(wjm + resj) - f(wjm / ((jm + 1) * (jm + 1)))) / 1.64493406685;
}

/** `calc_rank_or` from the operands' `rankOrTerm`s, in the operands' order (NaN: the vector lacks that one). */
export function rankOrOfTerms(terms: Float64Array): number {
  let res = f(0);
  for (let o = 0; o < terms.length; o++) {
    const term = terms[o] as number;
    if (!Number.isNaN(term)) res = f(res + term);
  }
  const ranked = f(res / terms.length);
  return ranked < 0 ? f(1e-20) : ranked;
}

const NULL_POSITION = [(MAXENTRYPOS - 1) * 4];

/** Operand o's positions (one at the last position for none, as PostgreSQL's POSNULL), undefined when absent. */
function operandPositions(buffer: ArrayLike<number>, spans: Int32Array, o: number) {
  const start = spans[2 * o] as number;
  if (start < 0) return undefined;
  const end = spans[2 * o + 1] as number;
  if (end === start) return { positions: NULL_POSITION, none: true };
  return { positions: Array.from({ length: end - start }, (_, j) => buffer[start + j] as number), none: false };
}

function rankAnd(buffer: ArrayLike<number>, spans: Int32Array): number {
  const count = spans.length / 2;
  let res = f(-1);
  for (let i = 0; i < count; i++) {
    const own = operandPositions(buffer, spans, i);
    if (own === undefined) continue;
    const post = own.positions;
    const nullI = own.none;
    for (let k = 0; k < i; k++) {
      const other = operandPositions(buffer, spans, k);
      if (other === undefined) continue;
      const ct = other.positions;
      const nullK = other.none;
      for (const l of post) {
        for (const p of ct) {
          let distance = Math.abs((l >> 2) - (p >> 2));
          if (distance !== 0 || nullI || nullK) {
            if (distance === 0) distance = MAXENTRYPOS;
            const weights = f(
              f((RANK_WEIGHTS[l & 3] as number) * (RANK_WEIGHTS[p & 3] as number)) * wordDistance(distance),
            );
            const curw = f(Math.sqrt(weights));
            res = res < 0 ? curw : f(1.0 - (1.0 - res) * (1.0 - curw));
          }
        }
      }
    }
  }
  return res;
}

/**
 * pg_trgm's positional trigrams of a text (`generate_trgm_only`): every word (letters and digits), lowercased and
 * padded with two blanks before and one after, cut into trigrams in order.
 */
export function trigramsOf(text: string): string[] {
  const out: string[] = [];
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const chars = [' ', ' ', ...word, ' '];
    for (let i = 0; i + 3 <= chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}${chars[i + 2]}`);
  }
  return out;
}

/**
 * `word_similarity(search, text)` (pg_trgm's `calc_word_similarity`), on trigram strings: the reference form, and
 * what tests compare with PostgreSQL. The search ranks with `WordSimilarity` (the same steps on interned trigrams).
 */
export function wordSimilarity(searchTrigrams: readonly string[], textTrigrams: readonly string[]): number {
  const ids = new Map<string, number>();
  const intern = interner(ids);
  const search = Int32Array.from(searchTrigrams, intern);
  const text = Int32Array.from(textTrigrams, intern);
  return new WordSimilarity(search, ids.size).of(text, 0, text.length);
}

/** Ids for trigrams: 0, 1, 2, … in the order first met, kept in `ids` (its size is the vocabulary). */
export function interner(ids: Map<string, number>): (trigram: string) => number {
  return (trigram) => {
    let id = ids.get(trigram);
    if (id === undefined) {
      id = ids.size;
      ids.set(trigram, id);
    }
    return id;
  };
}

/** A text's trigram signature: 128 bits (four words), a bit set for each of its trigrams' ids (`signatureBit`). */
export const SIGNATURE_WORDS = 4;

/** The signature bit of a trigram id (0–127): a multiplicative hash, so neighbouring ids spread. */
export function signatureBit(id: number): number {
  return Math.imul(id, 0x9e3779b1) >>> 25;
}

/** Writes the signature of these trigram ids at `at` of `signatures`. */
export function writeSignature(signatures: Int32Array, at: number, trigramIds: ArrayLike<number>): void {
  signatures.fill(0, at, at + SIGNATURE_WORDS);
  for (let i = 0; i < trigramIds.length; i++) {
    const bit = signatureBit(trigramIds[i] as number);
    const word = at + (bit >>> 5);
    signatures[word] = (signatures[word] as number) | (1 << (bit & 31));
  }
}

/**
 * pg_trgm's plain `word_similarity` of one search against many texts, trigrams as ids below `vocabulary`: the
 * greatest similarity between the search's trigrams and any stretch of the text's (`iterate_word_similarity`), as
 * float4. A search trigram no text has may have any id (it only counts among the search's own).
 */
export class WordSimilarity {
  readonly #found: Uint8Array;
  readonly #ulen1: number;
  readonly #lastpos: Int32Array;
  /** `bound`'s marks of the search trigrams seen in the current text (a new stamp per text). */
  readonly #seen: Int32Array;
  #stamp = 0;
  /** Each distinct search trigram some text has: its word and bit in a text's signature (`signatureBound`). */
  readonly #signatureWords: Int32Array;
  readonly #signatureMasks: Int32Array;

  constructor(search: Int32Array, vocabulary: number) {
    this.#found = new Uint8Array(vocabulary);
    const unique = new Set<number>();
    for (const id of search) {
      unique.add(id);
      if (id < vocabulary) this.#found[id] = 1;
    }
    this.#ulen1 = unique.size;
    this.#lastpos = new Int32Array(vocabulary).fill(-1);
    this.#seen = new Int32Array(vocabulary);
    const known = [...unique].filter((id) => id < vocabulary);
    this.#signatureWords = Int32Array.from(known, (id) => signatureBit(id) >>> 5);
    this.#signatureMasks = Int32Array.from(known, (id) => 1 << (signatureBit(id) & 31));
  }

  /**
   * At least `bound` (so at least `of`), from the text's signature alone (`signatures`, SIGNATURE_WORDS words from
   * `at`): a search trigram whose bit is set may be in the text, one whose bit is clear is not. Four words read in
   * place of the text's trigrams: most texts of a search are refused on this.
   */
  signatureBound(signatures: Int32Array, at: number): number {
    const words = this.#signatureWords;
    const masks = this.#signatureMasks;
    let shared = 0;
    for (let i = 0; i < words.length; i++) {
      if (((signatures[at + (words[i] as number)] as number) & (masks[i] as number)) !== 0) shared += 1;
    }
    return this.#ulen1 === 0 ? 0 : f(shared / this.#ulen1);
  }

  /**
   * At least `of(text)`, for a fraction of its cost: the share of the search's distinct trigrams the text has at all
   * (a stretch of the text shares at most those, and its own distinct trigrams only add to the denominator).
   */
  bound(text: Int32Array, start: number, end: number): number {
    const found = this.#found;
    const seen = this.#seen;
    this.#stamp += 1;
    const stamp = this.#stamp;
    let shared = 0;
    for (let i = start; i < end; i++) {
      const id = text[i] as number;
      if (found[id] === 1 && seen[id] !== stamp) {
        seen[id] = stamp;
        shared += 1;
      }
    }
    return this.#ulen1 === 0 ? 0 : f(shared / this.#ulen1);
  }

  /** The text's trigrams are `text[start .. end)`. */
  of(pool: Int32Array, start: number, end: number): number {
    const text = pool.subarray(start, end);
    const found = this.#found;
    const lastpos = this.#lastpos;
    const ulen1 = this.#ulen1;
    const calc = (count: number, ulen2: number) => f(count / (ulen1 + ulen2 - count));
    const len2 = text.length;
    let ulen2 = 0;
    let count = 0;
    let upper = -1;
    let lower = -1;
    let smlrMax = f(0);
    for (let i = 0; i < len2; i++) {
      const trgindex = text[i] as number;
      if (lower >= 0 || found[trgindex] === 1) {
        if ((lastpos[trgindex] as number) < 0) {
          ulen2 += 1;
          if (found[trgindex] === 1) count += 1;
        }
        lastpos[trgindex] = i;
      }
      if (found[trgindex] === 1) {
        upper = i;
        if (lower === -1) {
          lower = i;
          ulen2 = 1;
        }
        let smlrCur = calc(count, ulen2);
        let tmpCount = count;
        let tmpUlen2 = ulen2;
        const prevLower = lower;
        for (let tmpLower = lower; tmpLower <= upper; tmpLower++) {
          const smlrTmp = calc(tmpCount, tmpUlen2);
          if (smlrTmp > smlrCur) {
            smlrCur = smlrTmp;
            ulen2 = tmpUlen2;
            lower = tmpLower;
            count = tmpCount;
          }
          const tmpTrgindex = text[tmpLower] as number;
          if (lastpos[tmpTrgindex] === tmpLower) {
            tmpUlen2 -= 1;
            if (found[tmpTrgindex] === 1) tmpCount -= 1;
          }
        }
        if (smlrCur > smlrMax) smlrMax = smlrCur;
        for (let tmpLower = prevLower; tmpLower < lower; tmpLower++) {
          const tmpTrgindex = text[tmpLower] as number;
          if (lastpos[tmpTrgindex] === tmpLower) lastpos[tmpTrgindex] = -1;
        }
      }
    }
    // Ready for the next text: only this text's trigrams were touched.
    for (let i = 0; i < len2; i++) lastpos[text[i] as number] = -1;
    return smlrMax;
  }
}
