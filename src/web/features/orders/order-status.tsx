import type { Order } from '../../../shared/schemas/orders.ts';

/**
 * The wording of each state: the customer's (spec: 'Paid') and the admin's (spec: 'Unpaid', 'pending to shipped');
 * the states the shop added after those read the same for both.
 */
export function orderStatusLabel(order: Pick<Order, 'status'>, view: 'customer' | 'admin'): string {
  switch (order.status) {
    case 'paid':
      return view === 'admin' ? 'pending to shipped' : 'Paid';
    case 'shipped':
      return 'Shipped';
    case 'delivered':
      return 'Delivered';
    case 'cancelled':
      return 'Cancelled';
    case 'refunded':
      return 'Refunded';
    default:
      return 'Unpaid';
  }
}

export function OrderStatusText({ order, view }: { order: Pick<Order, 'status'>; view: 'customer' | 'admin' }) {
  return <span className={`order-status-${order.status}`}>{orderStatusLabel(order, view)}</span>;
}

/** Carrier and tracking number once the order has shipped: customers see the tracking number too. */
export function TrackingText({ order }: { order: Pick<Order, 'carrier' | 'trackingNumber'> }) {
  if (!order.trackingNumber) return null;
  return (
    <div className="order-tracking small">
      {order.carrier ? `${order.carrier} ` : ''}tracking: <span className="font-monospace">{order.trackingNumber}</span>
    </div>
  );
}
