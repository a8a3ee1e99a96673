import type { Order } from '../../../shared/schemas/orders.ts';

/** The wording of each state: the customer's (spec: 'Paid') and the admin's (spec: 'Unpaid', 'pending to shipped'). */
function orderStatusLabel(order: Pick<Order, 'status'>, view: 'customer' | 'admin'): string {
  if (order.status === 'shipped') return 'Shipped';
  if (order.status === 'paid') return view === 'admin' ? 'pending to shipped' : 'Paid';
  return 'Unpaid';
}

export function OrderStatusText({ order, view }: { order: Pick<Order, 'status'>; view: 'customer' | 'admin' }) {
  return <span className={`order-status-${order.status}`}>{orderStatusLabel(order, view)}</span>;
}
