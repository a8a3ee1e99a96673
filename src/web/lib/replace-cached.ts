import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Puts a write's answer in the cache as the query's data, first cancelling a read of the same query still in flight.
 * Without the cancel, a read that left before the write (the cart and garage are read at sign-in, while the
 * visitor's copy is being merged) lands after it and puts the older answer back: the merged cart showed as empty
 * until the next reload (seen in the cart-checkout browser test).
 */
export async function replaceCached<T>(queryClient: QueryClient, queryKey: QueryKey, data: T): Promise<void> {
  await queryClient.cancelQueries({ queryKey, exact: true });
  queryClient.setQueryData(queryKey, data);
}

/**
 * Marks the queries under `queryKey` stale and reads the shown ones again, first cancelling reads still in flight.
 * TanStack Query hands an invalidation a query's first read when that read is still under way, so a read that left
 * before a write would answer for after it too: an admin's new model stayed "No models yet" (fitment browser test,
 * the models of a make just added were still being read when the model was added).
 */
export async function refreshAfterWrite(queryClient: QueryClient, queryKey: QueryKey): Promise<void> {
  await queryClient.cancelQueries({ queryKey });
  await queryClient.invalidateQueries({ queryKey });
}
