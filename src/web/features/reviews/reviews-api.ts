import { queryOptions } from '@tanstack/react-query';
import type { Review, ReviewInput } from '../../../shared/schemas/reviews.ts';
import { api, lazySchemas } from '../../lib/api-client.ts';
import { queryRoots } from '../../lib/query-keys.ts';

/** The answers' schemas, loaded with the first answer to check (ADR 018). */
const schemas = lazySchemas(
  () => import('./reviews-schemas.ts').then((module) => module.reviewAnswers),
  ['review', 'reviews'],
);

export const reviewKeys = {
  all: queryRoots.reviews,
  list: (limit: number | undefined) => [...queryRoots.reviews, 'list', limit ?? 'all'] as const,
};

export function reviewsQueryOptions(limit?: number) {
  return queryOptions({
    queryKey: reviewKeys.list(limit),
    queryFn: ({ signal }) => api('/review', { query: { limit }, schema: schemas.reviews, signal }),
  });
}

export function addReview(input: ReviewInput): Promise<Review> {
  return api('/review', { method: 'POST', body: input, schema: schemas.review });
}
