import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryRoots } from '../../lib/query-keys.ts';
import { markOrderPaid, orderKeys, placeOrder, shipOrder } from './orders-api.ts';

/** A new order takes its PCS out of stock: the order lists and the parts' available quantities refresh. */
export function usePlaceOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: placeOrder,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryRoots.parts }),
        queryClient.invalidateQueries({ queryKey: orderKeys.all }),
      ]),
  });
}

export function useShipOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) => shipOrder(orderId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }),
  });
}

/** Records a payment the provider confirmed (the server checks with the provider before it believes it). */
export function useMarkOrderPaid() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, transactionId }: { orderId: string; transactionId: string }) =>
      markOrderPaid(orderId, transactionId),
    onSuccess: (updated) => {
      queryClient.setQueryData(orderKeys.detail(updated._id), updated);
      return queryClient.invalidateQueries({ queryKey: orderKeys.all });
    },
  });
}
