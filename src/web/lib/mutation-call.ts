import { type MutationOptions, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';

/**
 * A mutation run through the query client's mutation cache, as `useMutation(options).mutateAsync` runs it (the
 * client's defaults, retries, `onSuccess`/`onError`), without `useMutation`'s observer: for the providers that only
 * call their writes and never show a write's state (the cart's, the garage's). Each observer is created and
 * subscribed while the page is hydrated, in every page's first task, and re-renders its provider (the whole app below
 * it) on every state a write goes through. The function is the same on every render and calls the latest options.
 */
export function useMutationCall<TData, TVariables>(
  options: MutationOptions<TData, Error, TVariables>,
): (variables: TVariables) => Promise<TData> {
  const queryClient = useQueryClient();
  const latest = useRef(options);
  latest.current = options;
  const [call] = useState(
    () => (variables: TVariables) =>
      queryClient.getMutationCache().build(queryClient, latest.current).execute(variables),
  );
  return call;
}
