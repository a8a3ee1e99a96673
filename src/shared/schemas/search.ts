import { z } from 'zod';
import { brandSchema } from './fitment.ts';
import { partSchema } from './parts.ts';

/** Search (ADR 012). How many of each kind `GET /api/part/suggest` offers: eight lines under the box. */
export const SUGGESTION_LIMITS = { parts: 4, categories: 2, brands: 2 } as const;

/** `GET /api/part/suggest?q=`: what has been typed so far (the list's `q` rules: trimmed, at most 100 characters). */
export const partSuggestQuerySchema = z.strictObject({
  q: z
    .string()
    .trim()
    .min(1, 'Type Something To Search For')
    .max(100, 'Search Must Be 100 Characters Or Fewer')
    .describe('What has been typed so far'),
  vehicle: z
    .guid({ error: 'Provide A Valid Id' })
    .optional()
    .describe('The vehicle the list is limited to: only parts that fit it are offered, each with its `fit`'),
});
export type PartSuggestQuery = z.infer<typeof partSuggestQuerySchema>;

export const partSuggestionsSchema = z.object({
  /** The best matches; when nothing matches, the parts whose names are closest (`closest: true`). */
  parts: z.array(partSchema),
  closest: z.boolean(),
  /** Categories and brands the words name: each a filter of the parts list. */
  categories: z.array(z.object({ slug: z.string(), name: z.string() })),
  brands: z.array(brandSchema),
  /** When nothing matches: a name of the catalogue most like the search ("Did you mean …?"), else null. */
  correction: z.string().nullable(),
});
export type PartSuggestions = z.infer<typeof partSuggestionsSchema>;
