import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ShipTo } from '../../../shared/schemas/addresses.ts';
import { queryRoots } from '../../lib/query-keys.ts';
import { refreshAfterWrite } from '../../lib/replace-cached.ts';
import { addAddress, checkout, deleteAddress, setOrderAddress } from './checkout-api.ts';

/** A checkout empties the cart, takes stock and adds orders; it may also save an address. */
export function useCheckout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ shipTo, idempotencyKey }: { shipTo: ShipTo; idempotencyKey: string }) =>
      checkout(shipTo, idempotencyKey),
    onSuccess: () =>
      Promise.all(
        [queryRoots.cart, queryRoots.orders, queryRoots.parts, queryRoots.addresses].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

export function useAddAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addAddress,
    onSuccess: () => refreshAfterWrite(queryClient, queryRoots.addresses),
  });
}

export function useDeleteAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAddress,
    onSuccess: () => refreshAfterWrite(queryClient, queryRoots.addresses),
  });
}

/** Several orders get the same address (the payment page's address step); the address is saved once. */
export function useSetOrdersAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ orderIds, shipTo }: { orderIds: readonly string[]; shipTo: ShipTo }) => {
      for (const orderId of orderIds) await setOrderAddress(orderId, shipTo);
    },
    onSettled: () =>
      Promise.all(
        [queryRoots.orders, queryRoots.addresses, queryRoots.payments].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}
