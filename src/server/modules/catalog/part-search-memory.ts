import { normalizePartNumber } from '../../../shared/part-numbers.ts';
import { type FactTable, keepInOrder, RANK_DOUBLES, RANK_SIGNATURE } from './part-facts.ts';
import { SEARCH_CANDIDATES, type SearchPlan, type SearchWord } from './part-search.ts';
import { KeptRows } from './part-search-table.ts';
import { rankOperands, rankOrOfTerms, tsRankOfSpans, WordSimilarity } from './pg-text-rank.ts';

/**
 * The catalogue search (ADR 012) over the in-memory facts (ADR 020): the same matching and ranking as the SQL in
 * part-search.ts, answered from the fact table's search columns, with what only the database knows well asked of it
 * once and kept: which names contain a word or are like it (pg_trgm, per word until a name changes) and which parts
 * fit the models a word names (per set of models until fitment changes). A part matches when its part numbers hold
 * the whole search, or when every word matches it by one of: its full text has all the word's lexemes; its brand or
 * category (or parent category) is named by the word; a part number equals the word; its name contains the word or,
 * for a word the full text does not know, is like it; it is fitted to a model the word names.
 */

/** What the database answers for the in-memory search (PartFacts keeps the answers). */
export interface SearchSources {
  /** Moves on when fitment or vehicles change (what `fittedToModels` answers). */
  fittingVersion: number;
  /** Rows whose name contains the word (`ILIKE`) or, with `typo`, is like it (`word <% name`). */
  nameMatches(word: string, typo: boolean): Promise<Int32Array>;
  /** Rows of the parts fitted to any of these models. */
  fittedToModels(modelIds: readonly string[]): Promise<Int32Array>;
}

/** True when the memory can answer the plan: whole words whose full-text query is a plain list of lexemes. */
export function answerableInMemory(plan: SearchPlan): boolean {
  return !plan.prefixLast && plan.words.every((word) => word.kind === 'word' && word.lexemes !== undefined);
}

/**
 * The search's candidates, as the SQL's `searchCondition` chooses them: every part whose part numbers hold the whole
 * search, and the first SEARCH_CANDIDATES parts every word matches (here: in the table's order).
 */
export async function searchCandidates(
  table: FactTable,
  plan: SearchPlan,
  sources: SearchSources,
): Promise<Int32Array> {
  const { search } = table;
  const lists: Int32Array[] = [];
  for (const word of plan.words) lists.push(await rowsOfWord(table, word, sources));
  const rows: number[] = [];
  // The whole search as a part number: a handful of rows, first.
  const taken = new Set<number>();
  if (plan.number) {
    for (const row of search.numberRows.get(plan.number) ?? []) {
      if (table.alive[row] === 1 && !taken.has(row)) {
        taken.add(row);
        rows.push(row);
      }
    }
  }
  // The rows in every word's list, in the table's order, until SEARCH_CANDIDATES.
  let found = 0;
  const take = (row: number) => {
    if (table.alive[row] !== 1) return;
    found += 1;
    if (taken.size === 0 || !taken.has(row)) rows.push(row);
  };
  if (lists.length === 1) {
    const [list] = lists as [Int32Array];
    for (let i = 0; i < list.length && found < SEARCH_CANDIDATES; i++) take(list[i] as number);
    return Int32Array.from(rows);
  }
  // Several words: their lists as bitsets, ANDed 32 rows at a time. Walking one list and looking each row up in the
  // others cost ~0.1 µs a row, up to 1 ms a search at 100,000 parts when the words rarely meet; this is ~3,000 ANDs.
  const bitsets = lists.map(bitsOf);
  let words = Number.POSITIVE_INFINITY;
  for (const bits of bitsets) words = Math.min(words, bits.length);
  for (let w = 0; w < words && found < SEARCH_CANDIDATES; w++) {
    let bits = (bitsets[0] as Int32Array)[w] as number;
    for (let l = 1; l < bitsets.length && bits !== 0; l++) bits &= (bitsets[l] as Int32Array)[w] as number;
    // Lowest bit first: rows in ascending order.
    while (bits !== 0 && found < SEARCH_CANDIDATES) {
      const lowest = bits & -bits;
      bits ^= lowest;
      take(w * 32 + 31 - Math.clz32(lowest));
    }
  }
  return Int32Array.from(rows);
}

/**
 * A sorted list of rows as a bitset (row r is bit r % 32 of word r / 32), made once per kept list. Signed words: a
 * word with its top bit set stays a 32-bit integer in the optimised loop (unsigned, it would be a double).
 */
const bitsetOfList = new WeakMap<Int32Array, Int32Array>();

function bitsOf(list: Int32Array): Int32Array {
  let bits = bitsetOfList.get(list);
  if (bits === undefined) {
    const last = list.length === 0 ? -1 : (list[list.length - 1] as number);
    bits = new Int32Array(Math.floor(last / 32) + 1);
    for (let i = 0; i < list.length; i++) {
      const row = list[i] as number;
      bits[row >>> 5] = (bits[row >>> 5] as number) | (1 << (row & 31));
    }
    bitsetOfList.set(list, bits);
  }
  return bits;
}

/** Per table, each word's rows (`rowsOfWord`) for one search version and fitting version. */
const keptWords = new WeakMap<FactTable, KeptRows<string>>();
/** Rows kept of words per table (4 bytes a row). */
const KEPT_WORD_ROWS = 4_000_000;

/**
 * The rows a word matches, sorted: its full text has all the word's lexemes; its brand or category is named by it; a
 * part number equals it; its name contains it or (a word the full text does not know) is like it; it is fitted to a
 * model the word names. Kept until the table's search version or the fitment moves on: a word's rows are the same
 * search after search, however the words are combined.
 */
async function rowsOfWord(table: FactTable, word: SearchWord, sources: SearchSources): Promise<Int32Array> {
  const version = `${table.searchVersion}/${sources.fittingVersion}`;
  const key = JSON.stringify([word.text, word.lexemes, word.brands, word.categories, word.models]);
  let kept = keptWords.get(table);
  const hit = kept?.get(key, version);
  if (hit) return hit;
  const n = table.size;
  const { search } = table;
  const mark = new Uint8Array(n);
  const add = (rows: ArrayLike<number>) => {
    for (let i = 0; i < rows.length; i++) mark[rows[i] as number] = 1;
  };
  // Full text: every lexeme of the word (plainto_tsquery joins them with &).
  const fullText = rowsInEvery(
    n,
    (word.lexemes ?? []).map((lexeme) => search.rowsWith(lexeme)),
  );
  add(fullText);
  const known = fullText.some((row) => table.alive[row] === 1);
  // Brand, category (a category's subcategories came with it in the plan).
  if (word.brands?.length || word.categories?.length) {
    add(table.rowsOfBrandsOrCategories(word.brands ?? [], word.categories ?? []));
  }
  const number = normalizePartNumber(word.text);
  if (number) add(search.numberRows.get(number) ?? []);
  // The name: contains the word; like it only when the full text does not know the word (as `ownArms`).
  add(await sources.nameMatches(word.text, !known));
  if (word.models?.length) add(await sources.fittedToModels(word.models));
  let count = 0;
  for (let row = 0; row < n; row++) count += mark[row] as number;
  const rows = new Int32Array(count);
  for (let row = 0, i = 0; row < n; row++) if (mark[row] === 1) rows[i++] = row;
  // Kept only when nothing moved on while the database was asked.
  if (version === `${table.searchVersion}/${sources.fittingVersion}`) {
    if (!kept) {
      kept = new KeptRows(KEPT_WORD_ROWS);
      keptWords.set(table, kept);
    }
    kept.set(key, version, rows);
  }
  return rows;
}

/** The rows in every list (a word's lexemes: its full-text query is all of them). */
function rowsInEvery(n: number, lists: (readonly number[])[]): readonly number[] {
  if (lists.length === 0) return [];
  if (lists.length === 1) return lists[0] as readonly number[];
  const counts = new Uint8Array(n);
  for (const list of lists) for (const row of list) counts[row] = (counts[row] as number) + 1;
  return (lists[0] as readonly number[]).filter((row) => counts[row] === lists.length);
}

/**
 * The best `wanted` of `rows` (indexes into it, best first) by relevance, as `relevance` in part-search.ts computes it
 * and the SQL orders it: 4 for an exact part number, plus twice the name's word similarity to the search, plus the
 * full-text rank (name A, MPN B, description C) of any word; ties oldest first, then by id.
 *
 * The word similarity is the costly part (~1 µs a name). Each row's relevance is first bounded with a similarity
 * of 1; the rows of the highest bounds are computed first, and any other row only when, at its bound, it could still
 * come before the page's last, then again with tighter bounds (the search's trigrams the name's 128-bit signature
 * may have, then the share of them its name has at all): most names are never compared, many never even looked at.
 * A name met twice in one search (the same part for many bikes) is compared once.
 */
export function topByRelevance(table: FactTable, plan: SearchPlan, rows: readonly number[], wanted: number): number[] {
  if (wanted <= 0) return [];
  const { search } = table;
  const operands = rankOperands(plan.words.flatMap((word) => word.lexemes ?? []));
  const operandIds = operands.map((lexeme) => search.lexemeIndex.get(lexeme) ?? -1);
  // A single word of several lexemes is an AND query (calc_rank_and); several words are ORed.
  const and = plan.words.length === 1 && operands.length > 1;
  const exactRows = new Set(plan.number ? (search.numberRows.get(plan.number) ?? []) : []);
  // A search trigram no name has takes an id beyond the vocabulary.
  const { at: nameAt, count: nameCount, ints: nameTrigrams } = search.trigrams;
  const similarity = new WordSimilarity(search.searchTrigrams(plan.text), search.trigramIndex.size);
  const { rankInts } = table;
  // Per name, its similarity and bound once: a parts catalogue repeats names ("Front Brake Pads" for every make).
  const { names } = search;
  const similarityOfName = new Map<string, number>();
  const boundOfName = new Map<string, number>();
  const count = rows.length;
  const scratch = scratchFor(count);
  const exact = scratch.doubles(0);
  const textRank = scratch.doubles(1);
  const bound = scratch.doubles(2);
  const spans = new Int32Array(operands.length * 2);
  const terms = new Float64Array(operands.length);
  // ORed words: each lexeme's share of the rank per row, walked forwards as the candidates come (in row order but
  // for the few exact part numbers first).
  const lexemeTerms = and ? [] : operandIds.map((id) => search.termsOfLexeme(id));
  const cursors = new Int32Array(operands.length);
  let previous = -1;
  for (let i = 0; i < count; i++) {
    const row = rows[i] as number;
    let rank = 0;
    if (operands.length === 0) rank = 0;
    else if (and) {
      rank = search.isEmptyDocument(row)
        ? 0
        : tsRankOfSpans(search.spansOf(row, operandIds, spans), spans, true, false);
    } else {
      for (let o = 0; o < operands.length; o++) {
        const lexeme = lexemeTerms[o];
        if (lexeme === undefined) {
          terms[o] = Number.NaN;
          continue;
        }
        const at = firstNotBelow(lexeme.rows, row > previous ? (cursors[o] as number) : 0, row);
        cursors[o] = at;
        terms[o] = lexeme.rows[at] === row ? (lexeme.terms[at] as number) : Number.NaN;
      }
      previous = row;
      // An empty document has none of the lexemes: 0, as PostgreSQL's ts_rank gives it.
      rank = rankOrOfTerms(terms);
    }
    exact[i] = exactRows.size > 0 && exactRows.has(row) ? 4 : 0;
    textRank[i] = rank;
    // Summed as PostgreSQL sums it ((exact + 2 × similarity) + rank): rounding keeps the bound a bound. First with
    // the similarity at its most (1); tighter only for a row that may need it (`tighten`).
    bound[i] = (exact[i] as number) + 2 + rank;
  }
  // How far each row's bound was tightened: 1 by the name's signature, 2 by its trigrams.
  const tightened = scratch.zeroedBytes(0);
  const tighten = (i: number) => {
    const row = rows[i] as number;
    let similar: number;
    if (tightened[i] === 0) {
      tightened[i] = 1;
      similar = similarity.signatureBound(rankInts, row * 2 * RANK_DOUBLES + RANK_SIGNATURE);
    } else if (tightened[i] === 1) {
      tightened[i] = 2;
      const name = names[row] as string;
      similar = boundOfName.get(name) ?? -1;
      if (similar < 0) {
        const start = nameAt[row] as number;
        similar = similarity.bound(nameTrigrams, start, start + (nameCount[row] as number));
        boundOfName.set(name, similar);
      }
    } else return;
    bound[i] = (exact[i] as number) + 2 * similar + (textRank[i] as number);
  };
  // Ties in the SQL's order: oldest first, then by id.
  const tieBreak = (a: number, b: number) => table.olderFirst(rows[a] as number, rows[b] as number);
  const ranks = scratch.doubles(3);
  const before = (a: number, b: number) => (ranks[b] as number) - (ranks[a] as number) || tieBreak(a, b);
  // Would a row at its bound come before index `last` of the page? (Its true place is never ahead of that.)
  const mayBeat = (i: number, last: number) => {
    const atBound = (bound[i] as number) - (ranks[last] as number);
    return atBound > 0 || (atBound === 0 && tieBreak(i, last) < 0);
  };
  const top: number[] = [];
  const consider = (i: number) => {
    const row = rows[i] as number;
    const name = names[row] as string;
    let similar = similarityOfName.get(name) ?? -1;
    if (similar < 0) {
      const start = nameAt[row] as number;
      similar = similarity.of(nameTrigrams, start, start + (nameCount[row] as number));
      similarityOfName.set(name, similar);
    }
    ranks[i] = (exact[i] as number) + 2 * similar + (textRank[i] as number);
    keepInOrder(top, i, wanted, before);
  };
  // First the rows of the highest bounds (the page's likely rows) make the bar; then every other row is compared
  // with the bar at its bound, and only one that may pass is computed (no sort of all the candidates).
  const seeded = scratch.zeroedBytes(1);
  const boundOrder = (a: number, b: number) => (bound[b] as number) - (bound[a] as number) || tieBreak(a, b);
  const seeds: number[] = [];
  for (let i = 0; i < count; i++) keepInOrder(seeds, i, wanted, boundOrder);
  for (const i of seeds) {
    seeded[i] = 1;
    consider(i);
  }
  for (let i = 0; i < count; i++) {
    if (seeded[i] === 1) continue;
    if (top.length >= wanted && !mayBeat(i, top[top.length - 1] as number)) continue;
    tighten(i);
    if (top.length >= wanted && !mayBeat(i, top[top.length - 1] as number)) continue;
    tighten(i);
    if (top.length >= wanted && !mayBeat(i, top[top.length - 1] as number)) continue;
    consider(i);
  }
  return top;
}

/**
 * Arrays every ranking reuses (`topByRelevance` runs to its end without waiting, so one ranking at a time uses them):
 * fresh ones were ~50 KB of garbage a search at 100,000 parts, in typed arrays whose memory the collector counts
 * apart and collects with whole-heap passes.
 */
const scratch = { capacity: 0, doubles: new Float64Array(0), bytes: new Uint8Array(0) };
const SCRATCH_DOUBLES = 4;
const SCRATCH_BYTES = 2;

function scratchFor(count: number) {
  if (scratch.capacity < count) {
    scratch.capacity = Math.max(count, scratch.capacity * 2, 1024);
    scratch.doubles = new Float64Array(scratch.capacity * SCRATCH_DOUBLES);
    scratch.bytes = new Uint8Array(scratch.capacity * SCRATCH_BYTES);
  }
  const { capacity } = scratch;
  return {
    /** The k-th array of doubles, `count` long; its old values are there until written. */
    doubles: (k: number) => scratch.doubles.subarray(k * capacity, k * capacity + count),
    /** The k-th array of bytes, `count` long, all 0. */
    zeroedBytes: (k: number) => scratch.bytes.subarray(k * capacity, k * capacity + count).fill(0),
  };
}

/**
 * The first index from `from` on whose value is at least `value` in a sorted list (its length when none): galloping,
 * then halving, so a long list is skipped through in steps of log of the distance rather than one by one.
 */
export function firstNotBelow(list: Int32Array, from: number, value: number): number {
  let lo = from;
  let hi = from;
  let step = 1;
  while (hi < list.length && (list[hi] as number) < value) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  if (hi > list.length) hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
