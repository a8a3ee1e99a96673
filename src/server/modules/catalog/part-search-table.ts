import { parseTsvector, rankOrTerm, trigramsOf } from './pg-text-rank.ts';

/**
 * Lists of rows kept by key with a tag (the version they were computed for), at most `budget` rows in all: a word
 * may name a third of the catalogue, so a count of entries would not bound the memory. Past the budget everything
 * is forgotten (the next searches compute their words again).
 */
export class KeptRows<Tag> {
  readonly #entries = new Map<string, { tag: Tag; rows: Int32Array }>();
  #total = 0;
  readonly #budget: number;

  constructor(budget: number) {
    this.#budget = budget;
  }

  get(key: string, tag: Tag): Int32Array | undefined {
    const entry = this.#entries.get(key);
    return entry && entry.tag === tag ? entry.rows : undefined;
  }

  set(key: string, tag: Tag, rows: Int32Array): void {
    const old = this.#entries.get(key);
    if (old) this.#total -= old.rows.length;
    if (this.#total + rows.length > this.#budget) this.clear();
    this.#entries.set(key, { tag, rows });
    this.#total += rows.length;
  }

  clear(): void {
    this.#entries.clear();
    this.#total = 0;
  }
}

/** A lexeme's rows in row order, and each one's rank term for it (`SearchColumns.termsOfLexeme`). */
export interface LexemeTerms {
  rows: Int32Array;
  terms: Float64Array;
}

/** Rows of lexemes' terms kept (12 bytes a row: 24 MB at most; a broad lexeme of 100,000 parts has ~25,000). */
const LEXEME_TERMS_KEPT = 2_000_000;

/** What the search keeps of a part (read with its facts, part-facts.ts). */
export interface SearchFacts {
  name: string;
  /** `parts.part_numbers`: every part number, normalised (`normalizePartNumber`). */
  partNumbers: string[] | null;
  /** `parts.search_vector` as text: the lexemes PostgreSQL made of name, MPN and description, with positions. */
  searchVector: string;
}

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
  /** Second and third arrays of the same slices, when asked for (a lexeme's rank term and its positions' start). */
  doubles: Float64Array | undefined;
  ints2: Int32Array | undefined;
  #used = 0;
  #live = 0;
  #rows = 0;

  constructor(options: { doubles?: boolean; ints2?: boolean } = {}) {
    if (options.doubles) this.doubles = new Float64Array(4096);
    if (options.ints2) this.ints2 = new Int32Array(4096);
  }

  set(row: number, ints: ArrayLike<number>, doubles?: ArrayLike<number>, ints2?: ArrayLike<number>): void {
    if (row >= this.at.length) {
      const size = Math.max(row + 1, this.at.length * 2);
      this.at = grownInt32(this.at, size);
      this.count = grownInt32(this.count, size);
    }
    this.#rows = Math.max(this.#rows, row + 1);
    this.#live -= this.count[row] as number;
    this.count[row] = 0;
    if (this.#used + ints.length > this.ints.length) this.#rewrite(Math.max(4096, (this.#live + ints.length) * 2));
    const at = this.#used;
    this.ints.set(ints, at);
    if (this.doubles && doubles) this.doubles.set(doubles, at);
    if (this.ints2 && ints2) this.ints2.set(ints2, at);
    this.at[row] = at;
    this.count[row] = ints.length;
    this.#used += ints.length;
    this.#live += ints.length;
  }

  /** Fits the pool to what it holds, in row order (after a reload has written every row). */
  trim(): void {
    this.#rewrite(this.#live);
  }

  /** Into arrays of `size`: in row order when at least half is old slices (or trimming), else as they are. */
  #rewrite(size: number): void {
    const ints = new Int32Array(size);
    const doubles = this.doubles ? new Float64Array(size) : undefined;
    const ints2 = this.ints2 ? new Int32Array(size) : undefined;
    if (this.#live * 2 <= this.#used || size === this.#live) {
      let used = 0;
      for (let row = 0; row < this.#rows; row++) {
        const at = this.at[row] as number;
        const count = this.count[row] as number;
        ints.set(this.ints.subarray(at, at + count), used);
        doubles?.set((this.doubles as Float64Array).subarray(at, at + count), used);
        ints2?.set((this.ints2 as Int32Array).subarray(at, at + count), used);
        this.at[row] = used;
        used += count;
      }
      this.#used = used;
    } else {
      ints.set(this.ints.subarray(0, this.#used));
      doubles?.set((this.doubles as Float64Array).subarray(0, this.#used));
      ints2?.set((this.ints2 as Int32Array).subarray(0, this.#used));
    }
    this.ints = ints;
    this.doubles = doubles;
    this.ints2 = ints2;
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
  /** A hash of each row's search vector text: an unchanged document is not written again. */
  #vectorHash = new Float64Array(1024);
  readonly #numbers: (string[] | undefined)[] = [];
  /**
   * Each row's lexeme ids (sorted), with their rank terms (what `termsOfLexeme` gathers) and where each one's
   * positions start in the row's slice of `#positions`.
   */
  readonly #lexemes = new RowSlices({ doubles: true, ints2: true });
  /** Each row's packed positions (pg-text-rank.ts), lexeme after lexeme. */
  readonly #positions = new RowSlices();
  /** Each row's name as pg_trgm's positional trigrams, as ids (what `WordSimilarity` reads). */
  readonly trigrams = new RowSlices();
  /** Every trigram of a name read so far → its id (`WordSimilarity` works on ids). */
  readonly trigramIndex = new Map<string, number>();
  readonly lexemeIndex = new Map<string, number>();
  /** Per lexeme id, the rows whose document has it (unordered). */
  readonly postings: number[][] = [];
  /** Per part number, the rows that have it. */
  readonly numberRows = new Map<string, number[]>();
  namesGeneration = 0;
  /** Per lexeme id, its rows in order with their rank terms (`termsOfLexeme`), until a row's document changes. */
  readonly #lexemeTerms = new Map<number, LexemeTerms>();
  #lexemeTermsKept = 0;

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

  /**
   * The rows whose document has lexeme `id`, in row order, each with its `rankOrTerm` (read from each row's slice
   * once): a search ranking a thousand candidates walks these forwards (memory read in order) rather than looking in
   * each candidate's own slice (a cache miss or two a row: most of a search's rank time at 100,000 parts). Made on
   * first use and kept until a document with the lexeme changes.
   */
  termsOfLexeme(id: number): LexemeTerms | undefined {
    if (id < 0 || id >= this.postings.length) return undefined;
    let kept = this.#lexemeTerms.get(id);
    if (kept === undefined) {
      const rows = Int32Array.from(this.postings[id] ?? []).sort();
      const terms = new Float64Array(rows.length);
      const slices = this.#lexemes;
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i] as number;
        const k = this.#find(slices.at[row] as number, slices.count[row] as number, id);
        terms[i] = k < 0 ? Number.NaN : ((slices.doubles as Float64Array)[k] as number);
      }
      if (this.#lexemeTermsKept + rows.length > LEXEME_TERMS_KEPT) {
        this.#lexemeTerms.clear();
        this.#lexemeTermsKept = 0;
      }
      kept = { rows, terms };
      this.#lexemeTerms.set(id, kept);
      this.#lexemeTermsKept += rows.length;
    }
    return kept;
  }

  /** The rows with this lexeme (empty when none). */
  rowsWith(lexeme: string): readonly number[] {
    const id = this.lexemeIndex.get(lexeme);
    return id === undefined ? [] : (this.postings[id] ?? []);
  }

  /**
   * Writes into `spans` (start, end pairs into the array returned) where each of these lexeme ids has its positions
   * in the row's document; -1 for one it lacks (pg-text-rank.ts, `tsRankOfSpans`).
   */
  spansOf(row: number, lexemeIds: readonly number[], spans: Int32Array): Int32Array {
    const slices = this.#lexemes;
    const at = slices.at[row] as number;
    const count = slices.count[row] as number;
    const base = this.#positions.at[row] as number;
    const positionCount = this.#positions.count[row] as number;
    const starts = slices.ints2 as Int32Array;
    for (let o = 0; o < lexemeIds.length; o++) {
      const k = this.#find(at, count, lexemeIds[o] as number);
      const last = k === at + count - 1;
      spans[2 * o] = k < 0 ? -1 : base + (starts[k] as number);
      spans[2 * o + 1] = k < 0 ? -1 : base + (last ? positionCount : (starts[k + 1] as number));
    }
    return this.#positions.ints;
  }

  /** Fits the pools to what they hold, in row order (PartFacts, after a reload). */
  trim(): void {
    this.#lexemes.trim();
    this.#positions.trim();
    this.trigrams.trim();
  }

  /** Where lexeme `id` is among a row's lexemes (`count` from `at`, sorted by id), -1 when it is not. */
  #find(at: number, count: number, id: number): number {
    if (id < 0) return -1;
    const lexemes = this.#lexemes.ints;
    let lo = at;
    let hi = at + count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const here = lexemes[mid] as number;
      if (here === id) return mid;
      if (here < id) lo = mid + 1;
      else hi = mid;
    }
    return -1;
  }

  isEmptyDocument(row: number): boolean {
    return (this.#lexemes.count[row] ?? 0) === 0;
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
    const hash = hashOf(vector);
    if (row >= this.#vectorHash.length) {
      const grown = new Float64Array(Math.max(row + 1, this.#vectorHash.length * 2));
      grown.set(this.#vectorHash);
      this.#vectorHash = grown;
    }
    if (row < this.#lexemes.count.length && this.#vectorHash[row] === hash && hash !== 0) return false;
    this.#vectorHash[row] = hash;
    const parsed = parseTsvector(vector);
    const lexemes = new Int32Array(parsed.size);
    const starts = new Int32Array(parsed.size);
    const terms = new Float64Array(parsed.size);
    const packed: number[] = [];
    const entries: { id: number; positions: number[] }[] = [];
    for (const [lexeme, positions] of parsed) {
      let id = this.lexemeIndex.get(lexeme);
      if (id === undefined) {
        id = this.postings.length;
        this.lexemeIndex.set(lexeme, id);
        this.postings.push([]);
      }
      entries.push({ id, positions });
    }
    // By lexeme id, so `#find` halves a row's lexemes rather than walking them.
    entries.sort((a, b) => a.id - b.id);
    let k = 0;
    for (const { id, positions } of entries) {
      lexemes[k] = id;
      starts[k] = packed.length;
      terms[k] = rankOrTerm(positions, 0, positions.length);
      for (const position of positions) packed.push(position);
      k += 1;
    }
    const slices = this.#lexemes;
    const oldAt = row < slices.count.length ? (slices.at[row] as number) : 0;
    const oldCount = row < slices.count.length ? (slices.count[row] as number) : 0;
    const before = new Set(slices.ints.subarray(oldAt, oldAt + oldCount));
    const after = new Set(lexemes);
    for (const id of before) if (!after.has(id)) removeFrom(this.postings[id], row);
    for (const id of after) if (!before.has(id)) this.postings[id]?.push(row);
    // The row's terms for every lexeme it had or has may differ now.
    for (const ids of [before, after]) {
      for (const id of ids) {
        const kept = this.#lexemeTerms.get(id);
        if (kept === undefined) continue;
        this.#lexemeTerms.delete(id);
        this.#lexemeTermsKept -= kept.rows.length;
      }
    }
    slices.set(row, lexemes, terms, starts);
    this.#positions.set(row, packed);
    return true;
  }
}

/** A 53-bit hash of a text (two FNV-1a halves); 0 is never returned for a text that was hashed. */
function hashOf(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return ((a >>> 0) % 0x200000) * 0x100000000 + (b >>> 0) + 1;
}

function removeFrom(rows: number[] | undefined, row: number): void {
  if (!rows) return;
  const at = rows.indexOf(row);
  if (at >= 0) {
    rows[at] = rows[rows.length - 1] as number;
    rows.pop();
  }
}
