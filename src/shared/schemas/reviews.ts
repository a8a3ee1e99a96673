import { z } from 'zod';
import { isShopImagePath } from './review-image.ts';

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

/** `GET /api/review` answers at most this many reviews unless `limit` says otherwise (up to the max). */
export const REVIEW_PAGE_SIZE = 20;
export const REVIEW_PAGE_MAX = 100;

export const reviewListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(REVIEW_PAGE_MAX).default(REVIEW_PAGE_SIZE),
});
export type ReviewListQuery = z.infer<typeof reviewListQuerySchema>;

export const reviewMessages = {
  nameRequired: 'Name Is Required',
  nameTooLong: 'Name Must Be 60 Characters Or Fewer',
  ratingRequired: 'Choose A Rating From 1 To 5',
  reviewRequired: 'Review Is Required',
  reviewTooLong: 'Review Must Be 500 Characters Or Fewer',
  imageNotFromShop: 'Choose A Picture From This Shop (For Example /images/avatars/avatar-2.svg)',
  imageTooLong: 'Use A Link Of At Most 2048 Characters',
  /** 403 to a signed-in account whose email is not verified yet. */
  verifyEmailFirst:
    'Please verify your email before you post a review: open the link we sent you, or ask for a new one on your dashboard.',
} as const;

/** A wait of so many seconds, said the way the limits' answers say it. */
function waitText(seconds: number): string {
  if (seconds > 90 * 60) return `${Math.ceil(seconds / 3600)} hours`;
  if (seconds > 90) return `${Math.ceil(seconds / 60)} minutes`;
  return `${seconds} seconds`;
}

/** 429 to an account or an address that posted many reviews lately. */
export function reviewLimitMessage(retryAfterSeconds: number): string {
  return `You have posted many reviews lately. Please try again in ${waitText(retryAfterSeconds)}.`;
}

/** A review's picture: only one the shop serves (review-image.ts says why). */
export const reviewImageSchema = z
  .string()
  .trim()
  .max(2048, reviewMessages.imageTooLong)
  .refine(isShopImagePath, reviewMessages.imageNotFromShop);

/** The body of `POST /api/review` (signed in). Every field is required, as the spec's form says. */
export const reviewInputSchema = z.strictObject({
  name: z.string().trim().min(1, reviewMessages.nameRequired).max(60, reviewMessages.nameTooLong),
  number: z
    .number({ error: reviewMessages.ratingRequired })
    .int(reviewMessages.ratingRequired)
    .min(1, reviewMessages.ratingRequired)
    .max(5, reviewMessages.ratingRequired),
  img: reviewImageSchema,
  review: z.string().trim().min(1, reviewMessages.reviewRequired).max(500, reviewMessages.reviewTooLong),
});
export type ReviewInput = z.infer<typeof reviewInputSchema>;
