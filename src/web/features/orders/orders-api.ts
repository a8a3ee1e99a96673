import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { OrderStatus } from '../../../shared/enums.ts';
import type { Order, ShipOrderBody } from '../../../shared/schemas/orders.ts';
import { api, apiOnce, apiPage, lazySchemas } from '../../lib/api-client.ts';
import { queryRoots } from '../../lib/query-keys.ts';

/** The answers' schemas, loaded with the first answer to check (ADR 018). */
const schemas = lazySchemas(
  () => import('./orders-schemas.ts').then((module) => module.orderAnswers),
  ['order', 'orders', 'detail'],
);

/** Query keys: every order mutation invalidates `orderKeys.all`, so My Order, Manage Orders and Payment refresh. */
export const orderKeys = {
  all: queryRoots.orders,
  mine: () => [...queryRoots.orders, 'mine'] as const,
  detail: (id: string) => [...queryRoots.orders, 'detail', id] as const,
  admin: (filter: AdminOrdersFilter) => [...queryRoots.orders, 'admin', filter] as const,
  page: (id: string) => [...queryRoots.orders, 'page', id] as const,
};

/** Manage Orders' list: a status (or all but cancelled), a search over customer and part, one page. */
export interface AdminOrdersFilter {
  limit: number;
  /** Page 1 and a page picked by number; Next and Previous use `after` / `before` instead. */
  offset?: number | undefined;
  after?: string | undefined;
  before?: string | undefined;
  status?: OrderStatus | undefined;
  q?: string | undefined;
}

/** Orders per page of My Order; the server answers at most 100 unless asked otherwise. */
const MY_ORDERS_PAGE_SIZE = 100;

/**
 * My Order, page by page (newest first): each page loads after the previous one's cursor (`X-Next-Cursor`),
 * so an order placed or cancelled meanwhile neither repeats nor hides another; no cursor, nothing more to load.
 */
export const myOrdersQueryOptions = infiniteQueryOptions({
  queryKey: orderKeys.mine(),
  queryFn: ({ pageParam, signal }) =>
    apiPage('/myorder', {
      query: { limit: MY_ORDERS_PAGE_SIZE, ...(pageParam ? { after: pageParam } : {}) },
      schema: schemas.orders,
      signal,
    }),
  initialPageParam: '',
  getNextPageParam: (last) => last.nextCursor || undefined,
});

export function orderQueryOptions(id: string) {
  return queryOptions({
    queryKey: orderKeys.detail(id),
    queryFn: ({ signal }) => api(`/myorder/${encodeURIComponent(id)}`, { schema: schemas.order, signal }),
  });
}

/** The order page: everything about one order, with its timeline. */
export function orderDetailQueryOptions(id: string) {
  return queryOptions({
    queryKey: orderKeys.page(id),
    queryFn: ({ signal }) => api(`/orders/${encodeURIComponent(id)}/detail`, { schema: schemas.detail, signal }),
  });
}

export function allOrdersQueryOptions(filter: AdminOrdersFilter) {
  const query = {
    limit: filter.limit,
    ...(filter.after ? { after: filter.after } : filter.before ? { before: filter.before } : {}),
    ...(filter.offset ? { offset: filter.offset } : {}),
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.q?.trim() ? { q: filter.q.trim() } : {}),
  };
  return queryOptions({
    queryKey: orderKeys.admin(filter),
    queryFn: ({ signal }) => apiPage('/allorder', { query, schema: schemas.orders, signal }),
    placeholderData: keepPreviousData,
  });
}

/**
 * One submit, one order: a retry after a network failure carries the same Idempotency-Key (apiOnce), and so does a
 * second submit of the same form when the form passes its key (SubmitKeys).
 */
export function placeOrder({
  idempotencyKey,
  ...input
}: {
  partId: string;
  quantity: number;
  address: string;
  phone: string;
  idempotencyKey?: string;
}): Promise<Order> {
  return apiOnce('/myorder', { method: 'POST', body: input, schema: schemas.order }, idempotencyKey);
}

export async function deleteOrder(id: string): Promise<void> {
  await api(`/myorder/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function markOrderPaid(id: string, transactionId: string): Promise<Order> {
  return api(`/myorder/${encodeURIComponent(id)}`, { method: 'PATCH', body: { transactionId }, schema: schemas.order });
}

export function shipOrder(id: string, shipment: ShipOrderBody): Promise<Order> {
  return api(`/allorder/${encodeURIComponent(id)}/ship`, { method: 'PATCH', body: shipment, schema: schemas.order });
}

export function deliverOrder(id: string): Promise<Order> {
  return api(`/allorder/${encodeURIComponent(id)}/deliver`, { method: 'PATCH', schema: schemas.order });
}

/** One refund per press: a retry after a network failure carries the same Idempotency-Key (apiOnce). */
export function refundOrder(id: string): Promise<Order> {
  return apiOnce(`/allorder/${encodeURIComponent(id)}/refund`, { method: 'POST', schema: schemas.order });
}
