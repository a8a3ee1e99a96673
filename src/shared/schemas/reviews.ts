import { z } from 'zod';
import { imageRefSchema } from './common.ts';

/** A review as it travels on the wire (spec §3: `number` is the rating). */
export const reviewSchema = z.object({
  _id: z.string(),
  name: z.string(),
  number: z.number().int().min(1).max(5).describe('Rating, 1 to 5 stars'),
  img: z.string(),
  review: z.string(),
  createdAt: z.string(),
});
export type Review = z.infer<typeof reviewSchema>;

export const reviewListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).optional(),
});
export type ReviewListQuery = z.infer<typeof reviewListQuerySchema>;

export const reviewMessages = {
  nameRequired: 'Name Is Required',
  nameTooLong: 'Name Must Be 60 Characters Or Fewer',
  ratingRequired: 'Choose A Rating From 1 To 5',
  reviewRequired: 'Review Is Required',
  reviewTooLong: 'Review Must Be 500 Characters Or Fewer',
} as const;

/** The body of `POST /api/review` (signed in). Every field is required, as the spec's form says. */
export const reviewInputSchema = z.strictObject({
  name: z.string().trim().min(1, reviewMessages.nameRequired).max(60, reviewMessages.nameTooLong),
  number: z
    .number({ error: reviewMessages.ratingRequired })
    .int(reviewMessages.ratingRequired)
    .min(1, reviewMessages.ratingRequired)
    .max(5, reviewMessages.ratingRequired),
  img: imageRefSchema,
  review: z.string().trim().min(1, reviewMessages.reviewRequired).max(500, reviewMessages.reviewTooLong),
});
export type ReviewInput = z.infer<typeof reviewInputSchema>;
