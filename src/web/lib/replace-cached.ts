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
