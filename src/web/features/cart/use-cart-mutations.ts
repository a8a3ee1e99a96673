import { useQueryClient } from '@tanstack/react-query';
import type { Cart } from '../../../shared/schemas/cart.ts';
import { useMutationCall } from '../../lib/mutation-call.ts';
import { replaceCached } from '../../lib/replace-cached.ts';
import { cartKeys, mergeCart, removeCartItem, setCartItem } from './cart-api.ts';

/** Every cart write answers the whole cart: it replaces the cached one, no second request. */
function useCartWrite<T>(write: (input: T) => Promise<Cart>) {
  const queryClient = useQueryClient();
  return useMutationCall({
    mutationFn: write,
    onSuccess: (cart) => replaceCached(queryClient, cartKeys.all, cart),
  });
}

export function useSetCartItem() {
  return useCartWrite(({ partId, quantity }: { partId: string; quantity: number }) => setCartItem(partId, quantity));
}

export function useRemoveCartItem() {
  return useCartWrite((partId: string) => removeCartItem(partId));
}

export function useMergeCart() {
  return useCartWrite(mergeCart);
}
