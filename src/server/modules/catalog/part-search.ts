import { type SQL, sql } from 'drizzle-orm';
import { normalizePartNumber } from '../../../shared/part-numbers.ts';
import { brands, categories, parts } from '../../db/schema.ts';
import type { PartFitmentPort } from './part-fitment-port.ts';

/**
 * The catalogue's search SQL (issue 14, ADR 012), used by `PartRepository` only. A search is split into words; a part
 * matches when its part numbers equal the whole search in any spelling, or when every word matches it in one of
 * these ways, each answered by an index so PostgreSQL can OR them as bitmaps:
 *
 * - full text: the word's English stem in `search_vector` (name, MPN, description), so "pads" finds "pad";
 * - the name: contains the word, or is like it by trigrams (`<%`, word similarity ≥ 0.6: "brak" finds "Brake");
 * - a part number equal to the word;
 * - the part's brand or category, or a make or model it fits, is named by the word (trigrams again: "yamah").
 *
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
  /**
   * The models the word names by model or make name (found when the plan is made): their fitted parts are added as
   * a set of ids (see `wordCondition`), the one arm that is not a condition on the part's own row.
   */
  models?: readonly string[];
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

function numberMatch(number: string): SQL {
  return sql`${parts.partNumbers} @> array[${number}]::text[]`;
}

/**
 * How a word names a brand, category, make or model: as a whole word, typos tolerated (strict word similarity, so
 * "brak" does not name "Brand 12" by its first letters); a word still being typed may be the start of one.
 */
export function namesIt(word: string, name: SQL, prefix: boolean): SQL {
  return prefix
    ? sql`word_similarity(${word}, ${name}) >= ${NAMES}`
    : sql`strict_word_similarity(${word}, ${name}) >= ${NAMES}`;
}

/** The condition one word puts on a part (see the top of this file). */
function wordCondition(word: SearchWord, prefix: boolean, fitment: PartFitmentPort): SQL {
  const contains = `%${escapeLike(word.text)}%`;
  if (word.kind === 'symbols') return sql`(${parts.name} ilike ${contains} or ${parts.description} ilike ${contains})`;
  const arms = ownArms(word, prefix, contains);
  if (!word.models?.length) return sql`(${sql.join(arms, sql` or `)})`;
  // A make names thousands of fitted parts: as an array in the OR it would be searched row by row when PostgreSQL
  // rechecks each candidate (measured: a statement timeout at 100,000 parts). As a union of id sets each side is
  // read from its own index and hashed once. (The inner `parts` hides the outer one inside the subquery.)
  return sql`${parts.id} in (select ${parts.id} from ${parts} where ${sql.join(arms, sql` or `)} union ${fitment.partIdsOfModels(word.models)})`;
}

/** The conditions a word puts on the part's own row, each answered by an index. */
function ownArms(word: SearchWord, prefix: boolean, contains: string): SQL[] {
  // PostgreSQL rechecks each candidate row against the whole OR, in this order: the cheap tests first, the name's
  // trigrams (computed per row) last.
  const arms = [
    sql`${parts.searchVector} @@ ${wordQuery(word.text, prefix)}`,
    // A set of ids from a small table as an array: an index condition, so the arms still OR as bitmaps.
    sql`${parts.brandId} = any(array(select named_brand.id from ${brands} named_brand where ${namesIt(word.text, sql`named_brand.name`, prefix)}))`,
    sql`${parts.categoryId} = any(array(select named_category.id from ${categories} named_category where ${namesIt(word.text, sql`named_category.name`, prefix)} union all select sub.id from ${categories} sub inner join ${categories} named_parent on named_parent.id = sub.parent_id where ${namesIt(word.text, sql`named_parent.name`, prefix)}))`,
  ];
  const number = normalizePartNumber(word.text);
  if (number) arms.push(numberMatch(number));
  arms.push(sql`${parts.name} ilike ${contains}`, sql`${word.text} <% ${parts.name}`);
  return arms;
}

/** The search's condition on `parts`. */
export function searchCondition(plan: SearchPlan, fitment: PartFitmentPort): SQL {
  const words = plan.words.map((word, i) =>
    wordCondition(word, plan.prefixLast && i === plan.words.length - 1, fitment),
  );
  const every = words.length > 0 ? sql`(${sql.join(words, sql` and `)})` : sql`false`;
  if (!plan.number) return every;
  if (!plan.words.some((word) => word.models?.length)) return sql`(${numberMatch(plan.number)} or ${every})`;
  // An OR around a vehicle word's id set would make PostgreSQL run that set's query once per part when it is too
  // big to hash (measured: 111 s for "yamah" at 100,000 parts); as a union each side stays a join.
  return sql`${parts.id} in (select ${parts.id} from ${parts} where ${numberMatch(plan.number)} union select ${parts.id} from ${parts} where ${every})`;
}

/** How well a part answers the search, highest first (see the top of this file). */
export function relevance(plan: SearchPlan): SQL {
  const exactNumber = plan.number ? sql`(case when ${numberMatch(plan.number)} then 4 else 0 end)` : sql`0`;
  const stems = plan.words.filter((word) => word.kind === 'word');
  // Any word counts towards the rank (OR), so a part matching more of them ranks higher.
  const rank =
    stems.length > 0
      ? sql`ts_rank('{0.1, 0.2, 0.4, 1.0}', ${parts.searchVector}, ${sql.join(
          stems.map((word, i) => wordQuery(word.text, plan.prefixLast && i === stems.length - 1)),
          sql` || `,
        )})`
      : sql`0`;
  return sql`(${exactNumber} + 2 * word_similarity(${plan.text}, ${parts.name}) + ${rank})`;
}
