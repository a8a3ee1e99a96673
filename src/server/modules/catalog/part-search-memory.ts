import { normalizePartNumber } from '../../../shared/part-numbers.ts';
import type { FactTable } from './part-facts.ts';
import { SEARCH_CANDIDATES, type SearchPlan } from './part-search.ts';
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
  const n = table.size;
  const { search } = table;
  // How many words, in order, each row has matched so far: word k moves a row from k to k + 1 (once, whichever of
  // its arms names it), so the rows at `words.length` matched every word. Only the rows each arm names are visited.
  const matched = new Uint8Array(n);
  let k = 0;
  const advance = (rows: ArrayLike<number>) => {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as number;
      if (matched[row] === k) matched[row] = k + 1;
    }
  };
  for (const word of plan.words) {
    // Full text: every lexeme of the word (plainto_tsquery joins them with &).
    const fullText = rowsInEvery(
      n,
      (word.lexemes ?? []).map((lexeme) => search.rowsWith(lexeme)),
    );
    advance(fullText);
    const known = fullText.some((row) => table.alive[row] === 1);
    // Brand, category (a category's subcategories came with it in the plan).
    if (word.brands?.length || word.categories?.length) {
      advance(table.rowsOfBrandsOrCategories(word.brands ?? [], word.categories ?? []));
    }
    const number = normalizePartNumber(word.text);
    if (number) advance(search.numberRows.get(number) ?? []);
    // The name: contains the word; like it only when the full text does not know the word (as `ownArms`).
    advance(await sources.nameMatches(word.text, !known));
    if (word.models?.length) advance(await sources.fittedToModels(word.models));
    k += 1;
  }
  const rows: number[] = [];
  const taken = new Uint8Array(n);
  if (plan.number) {
    for (const row of search.numberRows.get(plan.number) ?? []) {
      if (table.alive[row] === 1 && taken[row] === 0) {
        taken[row] = 1;
        rows.push(row);
      }
    }
  }
  let found = 0;
  for (let row = 0; row < n && k > 0 && found < SEARCH_CANDIDATES; row++) {
    if (matched[row] === k && table.alive[row] === 1) {
      found += 1;
      if (taken[row] === 0) {
        taken[row] = 1;
        rows.push(row);
      }
    }
  }
  return Int32Array.from(rows);
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
 * Each row's relevance, as `relevance` in part-search.ts computes it: 4 for an exact part number, plus twice the
 * name's word similarity to the search, plus the full-text rank (name A, MPN B, description C) of any word. The
 * answer is in the order of `rows`.
 */
export function relevanceOf(table: FactTable, plan: SearchPlan, rows: readonly number[]): Float64Array {
  const { search } = table;
  const operands = rankOperands(plan.words.flatMap((word) => word.lexemes ?? []));
  const operandIds = operands.map((lexeme) => search.lexemeIndex.get(lexeme) ?? -1);
  // A single word of several lexemes is an AND query (calc_rank_and); several words are ORed.
  const and = plan.words.length === 1 && operands.length > 1;
  const exactRows = new Set(plan.number ? (search.numberRows.get(plan.number) ?? []) : []);
  // Every name's trigrams first: the search's unknown trigrams take ids beyond the vocabulary as it then is.
  const names = rows.map((row) => search.trigramsOf(row));
  const similarity = new WordSimilarity(search.searchTrigrams(plan.text), search.trigramIndex.size);
  const ranks = new Float64Array(rows.length);
  const spans = new Int32Array(operands.length * 2);
  const terms = new Float64Array(operands.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as number;
    let rank = 0;
    if (search.isEmptyDocument(row) || operands.length === 0) rank = 0;
    else if (and) rank = tsRankOfSpans(search.spansOf(row, operandIds, spans), spans, true, false);
    else {
      // ORed words: each lexeme's share was computed when the part was read.
      search.termsOf(row, operandIds, terms);
      rank = rankOrOfTerms(terms);
    }
    ranks[i] = (exactRows.has(row) ? 4 : 0) + 2 * similarity.of(names[i] as Int32Array) + rank;
  }
  return ranks;
}
