import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { type Order, orderSchema } from '../../../shared/schemas/orders.ts';
import { api, apiRequest } from '../../lib/api-client.ts';
import { queryRoots } from '../../lib/query-keys.ts';

/** Query keys: every order mutation invalidates `orderKeys.all`, so My Order, Manage Orders and Payment refresh. */
export const orderKeys = {
  all: queryRoots.orders,
  mine: () => [...queryRoots.orders, 'mine'] as const,
  detail: (id: string) => [...queryRoots.orders, 'detail', id] as const,
  admin: (page: { limit: number; offset: number }) => [...queryRoots.orders, 'admin', page] as const,
};

export const myOrdersQueryOptions = queryOptions({
  queryKey: orderKeys.mine(),
  queryFn: ({ signal }) => api('/myorder', { schema: z.array(orderSchema), signal }),
});

export function orderQueryOptions(id: string) {
  return queryOptions({
    queryKey: orderKeys.detail(id),
    queryFn: ({ signal }) => api(`/myorder/${encodeURIComponent(id)}`, { schema: orderSchema, signal }),
  });
}

export function allOrdersQueryOptions(page: { limit: number; offset: number }) {
  return queryOptions({
    queryKey: orderKeys.admin(page),
    queryFn: async ({ signal }) => {
      const { data, headers } = await apiRequest('/allorder', { query: page, schema: z.array(orderSchema), signal });
      const total = Number(headers.get('x-total-count'));
      return { items: data, total: Number.isFinite(total) ? total : data.length };
    },
    placeholderData: keepPreviousData,
  });
}

export function placeOrder(input: {
  partId: string;
  quantity: number;
  address: string;
  phone: string;
}): Promise<Order> {
  return api('/myorder', { method: 'POST', body: input, schema: orderSchema });
}

export async function deleteOrder(id: string): Promise<void> {
  await api(`/myorder/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function markOrderPaid(id: string, transactionId: string): Promise<Order> {
  return api(`/myorder/${encodeURIComponent(id)}`, { method: 'PATCH', body: { transactionId }, schema: orderSchema });
}

export function shipOrder(id: string): Promise<Order> {
  return api(`/allorder/${encodeURIComponent(id)}/ship`, { method: 'PATCH', schema: orderSchema });
}
