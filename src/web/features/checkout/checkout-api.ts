import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { type NewAddressBody, type ShipTo, savedAddressSchema } from '../../../shared/schemas/addresses.ts';
import { type CheckoutResponse, checkoutResponseSchema } from '../../../shared/schemas/cart.ts';
import { type Order, orderSchema } from '../../../shared/schemas/orders.ts';
import { api, apiOnce } from '../../lib/api-client.ts';
import { queryRoots } from '../../lib/query-keys.ts';

/** The caller's address book, most recently used first. */
export const addressesQueryOptions = queryOptions({
  queryKey: queryRoots.addresses,
  queryFn: ({ signal }) => api('/addresses', { schema: z.array(savedAddressSchema), signal }),
});

export function addAddress(body: NewAddressBody) {
  return api('/addresses', { method: 'POST', body, schema: savedAddressSchema });
}

export async function deleteAddress(id: string): Promise<void> {
  await api(`/addresses/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/**
 * Every line of the cart placed as an order, all or none. One Idempotency-Key per submit (apiOnce), so a retry after
 * a lost answer places nothing more.
 */
export function checkout(shipTo: ShipTo, idempotencyKey?: string): Promise<CheckoutResponse> {
  return apiOnce('/checkout', { method: 'POST', body: shipTo, schema: checkoutResponseSchema }, idempotencyKey);
}

/** Gives an unpaid order its shipping address (before it is paid). */
export function setOrderAddress(orderId: string, shipTo: ShipTo): Promise<Order> {
  return api(`/myorder/${encodeURIComponent(orderId)}/address`, { method: 'PATCH', body: shipTo, schema: orderSchema });
}
