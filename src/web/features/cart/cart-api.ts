import { queryOptions } from '@tanstack/react-query';
import type { Cart, MergeCartBody } from '../../../shared/schemas/cart.ts';
import { api, lazySchema } from '../../lib/api-client.ts';
import { queryRoots } from '../../lib/query-keys.ts';

/** The answer's schema, loaded with the first answer to check (ADR 018). */
const cartSchema = lazySchema(() => import('./cart-schemas.ts').then((module) => module.cartAnswers.cart));

/** Query keys: every cart mutation answers the whole cart, which replaces this one entry. */
export const cartKeys = {
  all: queryRoots.cart,
};

export const cartQueryOptions = queryOptions({
  queryKey: cartKeys.all,
  queryFn: ({ signal }) => api('/cart', { schema: cartSchema, signal }),
});

export function setCartItem(partId: string, quantity: number): Promise<Cart> {
  return api(`/cart/items/${encodeURIComponent(partId)}`, { method: 'PUT', body: { quantity }, schema: cartSchema });
}

export function removeCartItem(partId: string): Promise<Cart> {
  return api(`/cart/items/${encodeURIComponent(partId)}`, { method: 'DELETE', schema: cartSchema });
}

export function mergeCart(body: MergeCartBody): Promise<Cart> {
  return api('/cart/merge', { method: 'POST', body, schema: cartSchema });
}
