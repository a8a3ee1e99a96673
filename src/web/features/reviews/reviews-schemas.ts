import { z } from 'zod';
import { reviewSchema } from '../../../shared/schemas/reviews.ts';

/** The reviews API's answers, imported on demand by `reviews-api.ts` (`lazySchema`, ADR 018). */
export const reviewAnswers = {
  review: reviewSchema,
  reviews: z.array(reviewSchema),
};
