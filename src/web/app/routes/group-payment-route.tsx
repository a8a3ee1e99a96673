import { useQueries } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { ShippingAddressStep } from '../../features/checkout/shipping-address-step.tsx';
import { orderQueryOptions } from '../../features/orders/orders-api.ts';
import { type GroupOrders, GroupPaymentPage } from '../../features/payments/group-payment-page.tsx';
import { useConfirmPayment } from '../../features/payments/use-confirm-payment.ts';

/** The most orders one payment covers, as the server's MAX_ORDERS_PER_PAYMENT. */
const MAX_ORDERS = 50;

/**
 * /dashboard/pay?orders=…: several orders of the orders feature paid at once through the payments
 * feature, with the checkout feature's address step for orders placed without a shipping address.
 */
export function Component() {
  const [search] = useSearchParams();
  const ids = [...new Set((search.get('orders') ?? '').split(',').filter(Boolean))].slice(0, MAX_ORDERS);
  const queries = useQueries({ queries: ids.map((id) => orderQueryOptions(id)) });
  const failed = queries.find((query) => query.isError);
  const group: GroupOrders = {
    status: failed ? 'error' : queries.some((query) => query.isPending) ? 'pending' : 'success',
    error: failed?.error ?? null,
    retry: () => {
      for (const query of queries) if (query.isError) void query.refetch();
    },
    orders: queries.flatMap((query) => (query.data ? [query.data] : [])),
  };
  const confirm = useConfirmPayment();
  return (
    <GroupPaymentPage
      group={group}
      addressStep={(orderIds) => <ShippingAddressStep orderIds={orderIds} />}
      confirm={(transactionId) => confirm.mutateAsync(transactionId)}
    />
  );
}
