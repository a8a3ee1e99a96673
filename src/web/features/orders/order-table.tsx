import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import { confirmMessages } from '../../../shared/messages.ts';
import { formatUsd } from '../../../shared/money.ts';
import type { Order } from '../../../shared/schemas/orders.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import type { useDeleteOrder } from './use-delete-order.ts';

// The pieces My Order and Manage Orders both show, in the same words; each table labels its own rows.

const orderDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
// In the order page's words: an owner sorting out the day's orders needs the time too.
const orderTime = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });

/** Order: the day it was placed (and with `withTime` the time) and a link to its page. */
export function OrderDateCell({
  order,
  link,
  withTime = false,
}: {
  order: Pick<Order, 'createdAt'>;
  link: ReactNode;
  withTime?: boolean;
}) {
  const placed = new Date(order.createdAt);
  if (withTime) {
    // The day on the first line, the time and the link on the second: a narrow column, two lines.
    return (
      <td data-label="Order" className="text-nowrap-sm">
        <div>
          <time dateTime={order.createdAt}>
            <span className="d-block">{orderDate.format(placed)}</span>{' '}
            <span className="small">{orderTime.format(placed)}</span>
          </time>
          <span className="small"> · {link}</span>
        </div>
      </td>
    );
  }
  return (
    <td data-label="Order" className="text-nowrap-sm">
      <div>
        <time dateTime={order.createdAt}>{orderDate.format(placed)}</time>
        <div className="small">{link}</div>
      </div>
    </td>
  );
}

/** Order Quantity, in PCS. */
export function OrderQuantityCell({ order }: { order: Pick<Order, 'quantity'> }) {
  return (
    <td data-label="Order Quantity" className="text-nowrap-sm">
      {order.quantity} PCS
    </td>
  );
}

/** Price: what the order costs, and the unit price under it. */
export function OrderPriceCell({ order }: { order: Pick<Order, 'total' | 'price'> }) {
  return (
    <td data-label="Price" className="text-nowrap-sm">
      <div>
        <strong>{formatUsd(order.total)}</strong>
        <div className="small text-body-secondary">{formatUsd(order.price)} per unit</div>
      </div>
    </td>
  );
}

/** Action: Delete, disabled once the order is paid (spec §2); `label` tells screen readers which order. */
export function DeleteOrderCell({ order, label, onDelete }: { order: Order; label: string; onDelete(): void }) {
  return (
    <td data-label="Action">
      <Button variant="outline-danger" size="sm" disabled={order.paid} onClick={onDelete} aria-label={label}>
        Delete
      </Button>
    </td>
  );
}

/** 'Confirm Delete', asked before an order is deleted; `describe` says which order and what happens to its PCS. */
export function DeleteOrderDialog({
  remove,
  describe,
}: {
  remove: ReturnType<typeof useDeleteOrder>;
  describe(order: Order): string;
}) {
  return (
    <ConfirmDialog
      show={remove.pending !== null}
      title={confirmMessages.deleteOrder}
      body={remove.pending ? describe(remove.pending) : undefined}
      busy={remove.busy}
      onConfirm={remove.confirm}
      onCancel={remove.cancel}
    />
  );
}
