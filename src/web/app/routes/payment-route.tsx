import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { ShippingAddressStep } from '../../features/checkout/shipping-address-step.tsx';
import { orderQueryOptions } from '../../features/orders/orders-api.ts';
import { useMarkOrderPaid } from '../../features/orders/use-order-mutations.ts';
import { PaymentPage } from '../../features/payments/payment-page.tsx';

/** /dashboard/payment/{orderId}: an order of the orders feature, paid through the payments feature's card forms. */
export function Component() {
  const { orderId = '' } = useParams();
  const order = useQuery(orderQueryOptions(orderId));
  const markPaid = useMarkOrderPaid();
  return (
    <PaymentPage
      order={order}
      markPaid={(transactionId) => markPaid.mutateAsync({ orderId, transactionId })}
      addressStep={<ShippingAddressStep orderIds={[orderId]} />}
    />
  );
}
