import { parseTsvector, rankOrTerm, trigramsOf } from './pg-text-rank.ts';

/** What the search keeps of a part (read with its facts, part-facts.ts). */
export interface SearchFacts {
  name: string;
  /** `parts.part_numbers`: every part number, normalised (`normalizePartNumber`). */
  partNumbers: string[] | null;
  /** `parts.search_vector` as text: the lexemes PostgreSQL made of name, MPN and description, with positions. */
  searchVector: string;
}

/** A part's document: its lexemes (ids) and, per lexeme, its packed positions (pg-text-rank.ts). */
interface Document {
  lexemes: Int32Array;
  /** `positions.subarray(starts[k], starts[k + 1])` are lexeme k's positions. */
  starts: Int32Array;
  positions: Uint16Array;
  /** Per lexeme, its `rankOrTerm` (ts_rank's share of it for a query of ORed words). */
  terms: Float64Array;
}

const EMPTY: Document = {
  lexemes: new Int32Array(0),
  starts: new Int32Array(1),
  positions: new Uint16Array(0),
  terms: new Float64Array(0),
};

/**
 * Each row's slice of numbers in one typed array (a pool): a search ranking a thousand candidates reads them in row
 * order, and rows read in row order then read memory in order. Scattered per-row objects cost a cache miss each
 * (measured: ~1 µs a candidate at 100,000 parts, most of a search's time). A rewritten row gets a new slice at the
 * end; the pool is rewritten in row order when half of it is old slices.
 */
class RowSlices {
  at = new Int32Array(1024);
  count = new Int32Array(1024);
  ints = new Int32Array(4096);
  /** A second array of the same slices (the lexemes' rank terms), when asked for. */
  doubles: Float64Array | undefined;
  #used = 0;
  #live = 0;
  #rows = 0;

  constructor(withDoubles: boolean) {
    if (withDoubles) this.doubles = new Float64Array(4096);
  }

  set(row: number, ints: ArrayLike<number>, doubles?: ArrayLike<number>): void {
    if (row >= this.at.length) {
      const size = Math.max(row + 1, this.at.length * 2);
      this.at = grownInt32(this.at, size);
      this.count = grownInt32(this.count, size);
    }
    this.#rows = Math.max(this.#rows, row + 1);
    this.#live -= this.count[row] as number;
    this.count[row] = 0;
    if (this.#used + ints.length > this.ints.length) this.#makeRoom(ints.length);
    const at = this.#used;
    this.ints.set(ints, at);
    if (this.doubles && doubles) this.doubles.set(doubles, at);
    this.at[row] = at;
    this.count[row] = ints.length;
    this.#used += ints.length;
    this.#live += ints.length;
  }

  /** Rewritten in row order when at least half is old slices; otherwise twice as big. */
  #makeRoom(needed: number): void {
    const size = Math.max(4096, (this.#live + needed) * 2);
    const ints = new Int32Array(size);
    const doubles = this.doubles ? new Float64Array(size) : undefined;
    if (this.#live * 2 <= this.#used) {
      let used = 0;
      for (let row = 0; row < this.#rows; row++) {
        const at = this.at[row] as number;
        const count = this.count[row] as number;
        ints.set(this.ints.subarray(at, at + count), used);
        doubles?.set((this.doubles as Float64Array).subarray(at, at + count), used);
        this.at[row] = used;
        used += count;
      }
      this.#used = used;
    } else {
      ints.set(this.ints.subarray(0, this.#used));
      doubles?.set((this.doubles as Float64Array).subarray(0, this.#used));
    }
    this.ints = ints;
    this.doubles = doubles;
  }
}

function grownInt32(old: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(size);
  next.set(old);
  return next;
}

/**
 * The search's columns of the fact table (ADR 020), one row a part, the rows of `FactTable`: each part's name, part
 * numbers and full-text document as PostgreSQL made it (the generated `search_vector`, so stems and stop words are
 * PostgreSQL's own), and the inverted lists a search reads: lexeme → rows, part number → rows.
 *
 * `namesGeneration` moves on whenever a part's name may newly match a word (a part added or renamed): the name
 * matches the database computed for a word (`PartFacts.nameMatches`) are kept only for one generation.
 */
export class SearchColumns {
  names: string[] = [];
  readonly #documents: Document[] = [];
  readonly #numbers: (string[] | undefined)[] = [];
  /** Each row's lexeme ids and their rank terms (what `termsOf` reads). */
  readonly #lexemes = new RowSlices(true);
  /** Each row's name as pg_trgm's positional trigrams, as ids (what `WordSimilarity` reads). */
  readonly trigrams = new RowSlices(false);
  /** Every trigram of a name read so far → its id (`WordSimilarity` works on ids). */
  readonly trigramIndex = new Map<string, number>();
  readonly lexemeIndex = new Map<string, number>();
  /** Per lexeme id, the rows whose document has it (unordered). */
  readonly postings: number[][] = [];
  /** Per part number, the rows that have it. */
  readonly numberRows = new Map<string, number[]>();
  namesGeneration = 0;

  /** True when what a search matches or ranks changed (a price or stock change is not that). */
  put(row: number, facts: SearchFacts, isNew: boolean): boolean {
    let changed = false;
    if (isNew || this.names[row] !== facts.name) {
      this.names[row] = facts.name;
      this.trigrams.set(row, this.#trigramIds(facts.name));
      this.namesGeneration += 1;
      changed = true;
    }
    changed = this.#putNumbers(row, facts.partNumbers ?? []) || changed;
    return this.#putDocument(row, facts.searchVector) || changed;
  }

  /** The rows with this lexeme (empty when none). */
  rowsWith(lexeme: string): readonly number[] {
    const id = this.lexemeIndex.get(lexeme);
    return id === undefined ? [] : (this.postings[id] ?? []);
  }

  /**
   * Writes into `spans` (start, end pairs into `positionsBuffer(row)`) where each of these lexeme ids has its
   * positions in the row's document; -1 for one it lacks (pg-text-rank.ts, `tsRankOfSpans`).
   */
  spansOf(row: number, lexemeIds: readonly number[], spans: Int32Array): Uint16Array {
    const document = this.#documents[row] ?? EMPTY;
    const { lexemes, starts } = document;
    for (let o = 0; o < lexemeIds.length; o++) {
      const id = lexemeIds[o] as number;
      spans[2 * o] = -1;
      spans[2 * o + 1] = -1;
      for (let k = 0; id >= 0 && k < lexemes.length; k++) {
        if (lexemes[k] === id) {
          spans[2 * o] = starts[k] as number;
          spans[2 * o + 1] = starts[k + 1] as number;
          break;
        }
      }
    }
    return document.positions;
  }

  /** Writes each lexeme id's `rankOrTerm` in the row's document into `terms`, NaN for one it lacks. */
  termsOf(row: number, lexemeIds: readonly number[], terms: Float64Array): void {
    const slices = this.#lexemes;
    const at = slices.at[row] as number;
    const end = at + (slices.count[row] as number);
    const lexemes = slices.ints;
    const kept = slices.doubles as Float64Array;
    for (let o = 0; o < lexemeIds.length; o++) {
      const id = lexemeIds[o] as number;
      let term = Number.NaN;
      for (let k = at; id >= 0 && k < end; k++) {
        if (lexemes[k] === id) {
          term = kept[k] as number;
          break;
        }
      }
      terms[o] = term;
    }
  }

  isEmptyDocument(row: number): boolean {
    return this.#lexemes.count[row] === 0;
  }

  hasNumber(row: number, number: string): boolean {
    return this.#numbers[row]?.includes(number) ?? false;
  }

  /** A name's positional trigrams (pg_trgm) as ids, new trigrams added to the index. */
  #trigramIds(name: string): number[] {
    return trigramsOf(name).map((trigram) => {
      let id = this.trigramIndex.get(trigram);
      if (id === undefined) {
        id = this.trigramIndex.size;
        this.trigramIndex.set(trigram, id);
      }
      return id;
    });
  }

  /** A search's trigrams as ids; one no name has gets an id of its own from `trigramIndex.size` on. */
  searchTrigrams(text: string): Int32Array {
    const unknown = new Map<string, number>();
    return Int32Array.from(trigramsOf(text), (trigram) => {
      const id = this.trigramIndex.get(trigram);
      if (id !== undefined) return id;
      let own = unknown.get(trigram);
      if (own === undefined) {
        own = this.trigramIndex.size + unknown.size;
        unknown.set(trigram, own);
      }
      return own;
    });
  }

  #putNumbers(row: number, numbers: string[]): boolean {
    const old = this.#numbers[row];
    if (old && old.length === numbers.length && old.every((n, i) => n === numbers[i])) return false;
    for (const number of old ?? []) removeFrom(this.numberRows.get(number), row);
    for (const number of new Set(numbers)) {
      let rows = this.numberRows.get(number);
      if (rows === undefined) {
        rows = [];
        this.numberRows.set(number, rows);
      }
      rows.push(row);
    }
    this.#numbers[row] = numbers;
    return true;
  }

  #putDocument(row: number, vector: string): boolean {
    const parsed = parseTsvector(vector);
    const lexemes = new Int32Array(parsed.size);
    const starts = new Int32Array(parsed.size + 1);
    let total = 0;
    for (const positions of parsed.values()) total += positions.length;
    const packed = new Uint16Array(total);
    let k = 0;
    let at = 0;
    for (const [lexeme, positions] of parsed) {
      let id = this.lexemeIndex.get(lexeme);
      if (id === undefined) {
        id = this.postings.length;
        this.lexemeIndex.set(lexeme, id);
        this.postings.push([]);
      }
      lexemes[k] = id;
      starts[k] = at;
      packed.set(positions, at);
      at += positions.length;
      k += 1;
    }
    starts[k] = at;
    const old = this.#documents[row];
    if (old && sameDocument(old, lexemes, starts, packed)) return false;
    const before = new Set(old?.lexemes ?? []);
    const after = new Set(lexemes);
    for (const id of before) if (!after.has(id)) removeFrom(this.postings[id], row);
    for (const id of after) if (!before.has(id)) this.postings[id]?.push(row);
    const terms = new Float64Array(lexemes.length);
    for (let l = 0; l < lexemes.length; l++)
      terms[l] = rankOrTerm(packed, starts[l] as number, starts[l + 1] as number);
    this.#documents[row] = lexemes.length === 0 ? EMPTY : { lexemes, starts, positions: packed, terms };
    this.#lexemes.set(row, lexemes, terms);
    return true;
  }
}

function sameDocument(old: Document, lexemes: Int32Array, starts: Int32Array, positions: Uint16Array): boolean {
  const same = (a: ArrayLike<number>, b: ArrayLike<number>) => {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  };
  return same(old.lexemes, lexemes) && same(old.starts, starts) && same(old.positions, positions);
}

function removeFrom(rows: number[] | undefined, row: number): void {
  if (!rows) return;
  const at = rows.indexOf(row);
  if (at >= 0) {
    rows[at] = rows[rows.length - 1] as number;
    rows.pop();
  }
}
