import { z } from 'zod';
import { brandSchema, categoryNodeSchema } from '../../../shared/schemas/fitment.ts';
import { partDetailsSchema, partListPageSchema, partSchema } from '../../../shared/schemas/parts.ts';
import { partSuggestionsSchema } from '../../../shared/schemas/search.ts';

/**
 * The catalogue API's answers as `parts-api.ts` checks them, built from the shared schemas. Imported on demand
 * (`lazySchema`, ADR 018): zod stays off a page's first load.
 */
export const partAnswers = {
  part: partSchema,
  parts: z.array(partSchema),
  details: partDetailsSchema,
  listPage: partListPageSchema,
  suggestions: partSuggestionsSchema,
  categories: z.array(categoryNodeSchema),
  brands: z.array(brandSchema),
};
