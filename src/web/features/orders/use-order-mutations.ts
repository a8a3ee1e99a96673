import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ShipOrderBody } from '../../../shared/schemas/orders.ts';
import { queryRoots } from '../../lib/query-keys.ts';
import { refreshAfterWrite } from '../../lib/replace-cached.ts';
import { deliverOrder, markOrderPaid, orderKeys, placeOrder, refundOrder, shipOrder } from './orders-api.ts';

/** A new order takes its PCS out of stock: the order lists and the parts' available quantities refresh. */
export function usePlaceOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: placeOrder,
    onSuccess: () =>
      Promise.all([refreshAfterWrite(queryClient, queryRoots.parts), refreshAfterWrite(queryClient, orderKeys.all)]),
  });
}

/** Admin: Ship with carrier and tracking number; the lists and the order page refresh. */
export function useShipOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, shipment }: { orderId: string; shipment: ShipOrderBody }) => shipOrder(orderId, shipment),
    onSuccess: () => refreshAfterWrite(queryClient, orderKeys.all),
  });
}

/** Admin: Mark Delivered. */
export function useDeliverOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) => deliverOrder(orderId),
    onSuccess: () => refreshAfterWrite(queryClient, orderKeys.all),
  });
}

/** Admin: refund a paid, unshipped order; its units return to stock, so the parts refresh too. */
export function useRefundOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) => refundOrder(orderId),
    onSuccess: () =>
      Promise.all([refreshAfterWrite(queryClient, orderKeys.all), refreshAfterWrite(queryClient, queryRoots.parts)]),
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
      return refreshAfterWrite(queryClient, orderKeys.all);
    },
  });
}
