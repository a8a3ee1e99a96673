import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryRoots } from '../../lib/query-keys.ts';
import { refreshAfterWrite } from '../../lib/replace-cached.ts';
import { confirmPayment } from './payments-api.ts';

/** Every order of a payment becomes paid: the order lists refresh. */
export function useConfirmPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmPayment,
    onSuccess: () => refreshAfterWrite(queryClient, queryRoots.orders),
  });
}
