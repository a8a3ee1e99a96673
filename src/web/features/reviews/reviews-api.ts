import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { type Review, type ReviewInput, reviewSchema } from '../../../shared/schemas/reviews.ts';
import { api } from '../../lib/api-client.ts';

export const reviewKeys = {
  all: ['reviews'] as const,
  list: (limit: number | undefined) => ['reviews', 'list', limit ?? 'all'] as const,
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
