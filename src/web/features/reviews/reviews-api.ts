import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { type Review, type ReviewInput, reviewSchema } from '../../../shared/schemas/reviews.ts';
import { api } from '../../lib/api-client.ts';
import { queryRoots } from '../../lib/query-keys.ts';

export const reviewKeys = {
  all: queryRoots.reviews,
  list: (limit: number | undefined) => [...queryRoots.reviews, 'list', limit ?? 'all'] as const,
};

export function reviewsQueryOptions(limit?: number) {
  return queryOptions({
    queryKey: reviewKeys.list(limit),
    queryFn: ({ signal }) => api('/review', { query: { limit }, schema: z.array(reviewSchema), signal }),
  });
}

export function addReview(input: ReviewInput): Promise<Review> {
  return api('/review', { method: 'POST', body: input, schema: reviewSchema });
}
