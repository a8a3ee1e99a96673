import { useMutation, useQueryClient } from '@tanstack/react-query';
import { refreshAfterWrite } from '../../lib/replace-cached.ts';
import { addReview, reviewKeys } from './reviews-api.ts';

/** A new review: the home page's 'Our Client Says' shows it the next time it is opened. */
export function useAddReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addReview,
    onSuccess: () => refreshAfterWrite(queryClient, reviewKeys.all),
  });
}
