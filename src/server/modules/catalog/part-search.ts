import { type SQL, sql } from 'drizzle-orm';
import { normalizePartNumber } from '../../../shared/part-numbers.ts';
import { parts } from '../../db/schema.ts';
import { partSearch } from './search-schema.ts';

/**
 * The catalogue's search SQL (ADRs 012, 025), used by `PartRepository` only. A search is split into words; a part
 * matches when its part numbers equal the whole search in any spelling, or when every word matches it in one of
 * these ways, each answered by an index of the search table (`part_search`) so PostgreSQL can OR them as bitmaps:
 *
 * - full text: the word's English stem in the document (name, MPN, description), so "pads" finds "pad";
 * - the name: contains the word, or is like it by trigrams (`<%`, word similarity ≥ 0.6: "brak" finds "Brake");
 * - a part number equal to the word;
 * - the part's brand or category, or a make or model it fits, is named by the word (trigrams again: "yamah").
 *
 * A word the full text does not know is also matched as the catalogue's words it is probably a typo of (ADR 030:
 * "brak" as "brake", by trigrams over `part_search_words`), in every way above, so a typo reaches what the word
 * reaches. Words naming a vehicle (a make, a model, both, loosely: "mt07", "MT 07", "yamaha mt-07") act as its fitment:
 * the parts fitted to it, and the universal ones when the search says more than the vehicle; a vehicle the list is
 * already limited to is simply left out of the words.
 *
 * The candidates are chosen from `part_search` alone, at most SEARCH_CANDIDATES of them, and only they are ranked.
 * Relevance: an exact part number first, then the name's likeness to the search, then the full-text rank, where the
 * name weighs most and the description least.
 */

/** At most this many words of a search count (a search is at most 100 characters anyway). */
const MAX_WORDS = 8;
/** Trigram word similarity from which a brand, category, make or model counts as named by a word. */
const NAMES = 0.6;
/** Similarity from which a name is offered as "Did you mean …?" or as a closest match (pg_trgm's own default). */
export const CLOSE_ENOUGH = 0.3;

export interface SearchWord {
  text: string;
  /**
   * `word`: has a stem for full-text search. `symbols`: no letter or digit ("%", "_", "--"): matched as a substring
   * of name or description, as search always did.
   */
  kind: 'word' | 'symbols';
  /** Ids of the models the word names by model or make name (found when the plan is made): their fitted parts match. */
  models?: readonly string[];
  /** The word names a vehicle and the search has other words: universal parts match it too (the vehicle's fitment). */
  universal?: boolean;
  /**
   * A few words side by side that together name a vehicle ("mt 07", "yamaha mt07"): matched by the vehicle and the
   * full text only.
   */
  phrase?: boolean;
  /** The catalogue's words this one is probably a typo of (only for a word the full text does not know). */
  fixes?: readonly string[];
  /** Ids of the brands the word names (as a whole word, typos tolerated): their parts match. */
  brands?: readonly string[];
  /** Ids of the categories the word names, and of their subcategories. */
  categories?: readonly string[];
  /**
   * The catalogue's full text has the word's stem: the name's trigram likeness (typo tolerance, computed per row) is
   * then left out, since the word is no typo of anything the shop sells under that stem.
   */
  known?: boolean;
}

export interface SearchPlan {
  /** The search, trimmed and lowercased. */
  text: string;
  /** The search as a part number (`normalizePartNumber`), '' when nothing is left. */
  number: string;
  words: SearchWord[];
  /** The last word also matches as a prefix (search-as-you-type: "bra" finds "Brake"). */
  prefixLast: boolean;
}

/** The words of a search, lowercased, each once, in order; the lexeme check (stop words) is the repository's. */
export function searchWords(q: string): string[] {
  return [
    ...new Set(
      q
        .toLowerCase()
        .split(/[\s,;]+/u)
        .filter(Boolean),
    ),
  ].slice(0, MAX_WORDS);
}

export function hasLetterOrDigit(word: string): boolean {
  return /[\p{L}\p{N}]/u.test(word);
}

/** LIKE wildcards typed by a shopper are searched for literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** One word as a text-search query; the last word of a search-as-you-type also as a prefix. */
function wordQuery(word: string, prefix: boolean): SQL {
  return prefix
    ? sql`(plainto_tsquery('english', ${word})::text || ':*')::tsquery`
    : sql`plainto_tsquery('english', ${word})`;
}

function numberMatch(numbers: SQL, number: string): SQL {
  return sql`${numbers} @> array[${number}]::text[]`;
}

/**
 * How a word names a brand, category, make or model: as a whole word, typos tolerated (strict word similarity, so
 * "brak" does not name "Brand 12" by its first letters); a word still being typed may be the start of one.
 */
export function namesIt(word: string | SQL, name: SQL, prefix: boolean): SQL {
  return prefix
    ? sql`word_similarity(${word}, ${name}) >= ${NAMES}`
    : sql`strict_word_similarity(${word}, ${name}) >= ${NAMES}`;
}

/** A uuid[] literal of ids from the plan (uuids, read from the database). */
function idArray(ids: readonly string[]): SQL {
  return sql`${`{${ids.join(',')}}`}::uuid[]`;
}

/**
 * The condition one word puts on a `part_search` row (see the top of this file), each arm answered by an index.
 * Brands, categories and models come as the plan's ids (constants, so PostgreSQL estimates them from its statistics
 * and a word naming none adds no arm). PostgreSQL rechecks each candidate row against the whole OR, in this order:
 * the cheap tests first, the name's trigrams (computed per row) last.
 */
function wordCondition(word: SearchWord, prefix: boolean): SQL {
  const contains = `%${escapeLike(word.text)}%`;
  // A description is not in the search table: symbols are rare, and looked for in the part itself.
  if (word.kind === 'symbols') {
    return sql`(${partSearch.name} ilike ${contains} or exists (select 1 from ${parts} where ${parts.id} = ${partSearch.partId} and ${parts.description} ilike ${contains}))`;
  }
  const arms = [sql`${partSearch.document} @@ ${wordQuery(word.text, prefix)}`];
  for (const fix of word.fixes ?? []) arms.push(sql`${partSearch.document} @@ ${wordQuery(fix, false)}`);
  if (word.brands?.length) arms.push(sql`${partSearch.brandId} = any(${idArray(word.brands)})`);
  if (word.categories?.length) arms.push(sql`${partSearch.categoryId} = any(${idArray(word.categories)})`);
  if (word.models?.length) arms.push(sql`${partSearch.modelIds} && ${idArray(word.models)}`);
  if (word.universal) arms.push(sql`${partSearch.universal}`);
  if (word.phrase) return sql`(${sql.join(arms, sql` or `)})`;
  const number = normalizePartNumber(word.text);
  if (number) arms.push(numberMatch(sql`${partSearch.partNumbers}`, number));
  arms.push(sql`${partSearch.name} ilike ${contains}`);
  // Typo tolerance only for a word the full text does not know (or one still being typed).
  if (!word.known || prefix) arms.push(sql`${word.text} <% ${partSearch.name}`);
  return sql`(${sql.join(arms, sql` or `)})`;
}

/**
 * At most this many matches of a search are ranked, counted and filtered (ADR 012): a broad search ("brake pads",
 * "yamaha") matches a tenth or a third of a big catalogue, and ranking and counting all of them made its cost grow
 * with the catalogue. The candidates are the first ones the indexes give, plus every exact part number; the list's
 * total is then "at least this many" (`X-Total-Count-Capped`).
 */
export const SEARCH_CANDIDATES = 1000;

/** The first SEARCH_CANDIDATES rows of `part_search` every word matches, with `columns` of them (the cap's CTE). */
function cappedMatches(plan: SearchPlan, columns: SQL): SQL {
  const words = plan.words.map((word, i) => wordCondition(word, plan.prefixLast && i === plan.words.length - 1));
  const every = words.length > 0 ? sql`(${sql.join(words, sql` and `)})` : sql`false`;
  // Materialised, the matches are planned as if all were wanted (bitmaps of the words' indexes), and read only until
  // the cap: as a plain subquery under LIMIT, PostgreSQL expects the cap to be reached early and scans the table in
  // order, which for two words each common on its own ("sintered brake") reads most of it.
  return sql`with search_hits as materialized (select ${columns} from ${partSearch} where ${every}) select * from search_hits limit ${SEARCH_CANDIDATES}`;
}

const exactNumberOf = (plan: SearchPlan) => sql`${partSearch.partNumbers} @> array[${plan.number}]::text[]`;

/**
 * The search's condition on `parts`: the part is one of the search's candidates, an exact part number or one of the
 * first SEARCH_CANDIDATES parts every word matches, chosen from `part_search` and computed once, as an array the
 * outer query reads by primary key.
 */
export function searchCondition(plan: SearchPlan): SQL {
  // Every word named the vehicle the list is already limited to: the search adds nothing to that filter.
  if (plan.words.length === 0) return sql`true`;
  const candidates = sql`(select id from (${cappedMatches(plan, sql`${partSearch.partId} as id`)}) capped)`;
  if (!plan.number) return sql`${parts.id} = any(array${candidates})`;
  return sql`${parts.id} = any(array(select ${partSearch.partId} from ${partSearch} where ${exactNumberOf(plan)} union all ${candidates}))`;
}

/**
 * The same candidates as `searchCondition`, each once, ranked from the search table alone (`id`, `created_at`,
 * `rank`): for a search with no other filter, which then reads `parts` for its page only.
 */
export function rankedCandidates(plan: SearchPlan): SQL {
  const columns = sql`${partSearch.partId} as id, ${partSearch.createdAt} as created_at, ${partSearch.document} as document, ${partSearch.name} as name, ${partSearch.partNumbers} as part_numbers`;
  const rank = relevanceOf(plan, { document: sql`document`, name: sql`name`, partNumbers: sql`part_numbers` });
  const ranked = sql`select id, created_at, ${rank} as rank from (${cappedMatches(plan, columns)}) capped`;
  if (!plan.number) return ranked;
  // A union, not union all: an exact number among the capped matches is the same row twice.
  const numbered = sql`select id, created_at, ${rank} as rank from (select ${columns} from ${partSearch} where ${exactNumberOf(plan)}) numbered`;
  return sql`${numbered} union ${ranked}`;
}

/** How well a part answers the search, highest first (see the top of this file). */
export function relevance(plan: SearchPlan): SQL {
  return relevanceOf(plan, {
    document: sql`${parts.searchVector}`,
    name: sql`${parts.name}`,
    partNumbers: sql`${parts.partNumbers}`,
  });
}

/** `relevance` over these columns: a part's own, or its copies in the search table (the same values). */
function relevanceOf(plan: SearchPlan, columns: { document: SQL; name: SQL; partNumbers: SQL }): SQL {
  const exactNumber = plan.number
    ? sql`(case when ${numberMatch(columns.partNumbers, plan.number)} then 4 else 0 end)`
    : sql`0`;
  const stems = plan.words.filter((word) => word.kind === 'word');
  // Any word counts towards the rank (OR), so a part matching more of them ranks higher; a typo as its likely words.
  const queries = stems.flatMap((word, i) => [
    wordQuery(word.text, plan.prefixLast && i === stems.length - 1),
    ...(word.fixes ?? []).map((fix) => wordQuery(fix, false)),
  ]);
  const rank =
    queries.length > 0
      ? sql`ts_rank('{0.1, 0.2, 0.4, 1.0}', ${columns.document}, ${sql.join(queries, sql` || `)})`
      : sql`0`;
  return sql`(${exactNumber} + 2 * word_similarity(${plan.text}, ${columns.name}) + ${rank})`;
}
