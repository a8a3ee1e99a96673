import { normalizePartNumber } from '../../../shared/part-numbers.ts';
import type { FactTable } from './part-facts.ts';
import { SEARCH_CANDIDATES, type SearchPlan } from './part-search.ts';
import { rankOperands, tsRank, WordSimilarity } from './pg-text-rank.ts';

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
  let every: Uint8Array | undefined;
  for (const word of plan.words) {
    const mark = new Uint8Array(n);
    // Full text: every lexeme of the word (plainto_tsquery joins them with &).
    const lexemes = word.lexemes ?? [];
    let known = false;
    if (lexemes.length > 0) {
      const lists = lexemes.map((lexeme) => search.rowsWith(lexeme));
      const ids = lexemes.map((lexeme) => search.lexemeIndex.get(lexeme) ?? -1);
      const shortest = lists.reduce((a, b) => (b.length < a.length ? b : a));
      for (const row of shortest) {
        if (ids.every((id) => id >= 0 && search.positionsOf(row, id) !== undefined)) {
          mark[row] = 1;
          if (table.alive[row] === 1) known = true;
        }
      }
    }
    // Brand, category (a category's subcategories came with it in the plan).
    if (word.brands?.length || word.categories?.length) {
      const brandOk = flags(table.brandIds.length, word.brands, table.brandIndex);
      const categoryOk = flags(table.categoryIds.length, word.categories, table.categoryIndex);
      for (let row = 0; row < n; row++) {
        const brand = table.brand[row] as number;
        const category = table.category[row] as number;
        if ((brand >= 0 && brandOk[brand] === 1) || (category >= 0 && categoryOk[category] === 1)) mark[row] = 1;
      }
    }
    const number = normalizePartNumber(word.text);
    if (number) for (const row of search.numberRows.get(number) ?? []) mark[row] = 1;
    // The name: contains the word; like it only when the full text does not know the word (as `ownArms`).
    for (const row of await sources.nameMatches(word.text, !known)) mark[row] = 1;
    if (word.models?.length) for (const row of await sources.fittedToModels(word.models)) mark[row] = 1;
    if (every === undefined) every = mark;
    else for (let row = 0; row < n; row++) every[row] = (every[row] as number) & (mark[row] as number);
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
  let matched = 0;
  for (let row = 0; row < n && every && matched < SEARCH_CANDIDATES; row++) {
    if (every[row] === 1 && table.alive[row] === 1) {
      matched += 1;
      if (taken[row] === 0) {
        taken[row] = 1;
        rows.push(row);
      }
    }
  }
  return Int32Array.from(rows);
}

function flags(size: number, ids: readonly string[] | undefined, index: Map<string, number>): Uint8Array {
  const ok = new Uint8Array(size);
  for (const id of ids ?? []) {
    const at = index.get(id);
    if (at !== undefined) ok[at] = 1;
  }
  return ok;
}

/**
 * Each row's relevance, as `relevance` in part-search.ts computes it: 4 for an exact part number, plus twice the
 * name's word similarity to the search, plus the full-text rank (name A, MPN B, description C) of any word.
 */
export function relevanceOf(table: FactTable, plan: SearchPlan, rows: readonly number[]): Map<number, number> {
  const { search } = table;
  const lexemes = plan.words.flatMap((word) => word.lexemes ?? []);
  const operands = rankOperands(lexemes);
  const operandIds = operands.map((lexeme) => search.lexemeIndex.get(lexeme) ?? -1);
  // A single word of several lexemes is an AND query (calc_rank_and); several words are ORed.
  const and = plan.words.length === 1 && operands.length > 1;
  // Every name's trigrams first: the search's unknown trigrams take ids beyond the vocabulary as it then is.
  const names = rows.map((row) => search.trigramsOf(row));
  const similarity = new WordSimilarity(search.searchTrigrams(plan.text), search.trigramIndex.size);
  const ranks = new Map<number, number>();
  rows.forEach((row, i) => {
    const exact = plan.number && search.hasNumber(row, plan.number) ? 4 : 0;
    const byId = (lexeme: string) => {
      const id = operandIds[operands.indexOf(lexeme)] as number;
      return id < 0 ? undefined : search.positionsOf(row, id);
    };
    const rank = tsRank(byId, operands, and, search.isEmptyDocument(row));
    ranks.set(row, exact + 2 * similarity.of(names[i] as Int32Array) + rank);
  });
  return ranks;
}
