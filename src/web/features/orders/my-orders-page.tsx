import { useInfiniteQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { formatUsd } from '../../../shared/money.ts';
import { paths } from '../../../shared/paths.ts';
import type { Order } from '../../../shared/schemas/orders.ts';
import { EmptyState, QueryStatus } from '../../components/query-state.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { OrderStatusText, TrackingText } from './order-status.tsx';
import {
  DeleteOrderCell,
  DeleteOrderDialog,
  OrderDateCell,
  OrderPriceCell,
  OrderQuantityCell,
} from './order-table.tsx';
import { myOrdersQueryOptions } from './orders-api.ts';
import { useDeleteOrder } from './use-delete-order.ts';
import './orders.css';

export function Component() {
  usePageTitle('My Order');
  const orders = useInfiniteQuery(myOrdersQueryOptions);
  const remove = useDeleteOrder();
  const list = orders.data?.pages.flatMap((page) => page.items);
  const total = orders.data?.pages.at(-1)?.total ?? 0;

  return (
    <section aria-labelledby="my-orders-title">
      <h1 id="my-orders-title" className="h3 mb-3">
        My Order
      </h1>
      <QueryStatus query={orders} what="your orders" loadingLabel="Loading your orders…" />
      <PayAllUnpaid orders={list ?? []} />
      {list?.length === 0 ? (
        <EmptyState>
          <p className="mb-2">You have not ordered anything yet.</p>
          <Link to={paths.parts} className="btn btn-brand">
            Browse Parts
          </Link>
        </EmptyState>
      ) : null}
      {list && list.length > 0 ? (
        <Table striped hover className="orders-table bg-white align-middle">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Order</th>
              <th scope="col">Name</th>
              <th scope="col">Price</th>
              <th scope="col">Order Quantity</th>
              <th scope="col">Action</th>
              <th scope="col">Payment Status</th>
            </tr>
          </thead>
          <tbody>
            {list.map((order, index) => (
              <tr key={order._id}>
                <th scope="row" data-label="#">
                  {index + 1}
                </th>
                <OrderDateCell
                  order={order}
                  link={
                    <Link to={paths.dashboard.order(order._id)}>
                      Details<span className="visually-hidden"> of the order of {order.name}</span>
                    </Link>
                  }
                />
                <td data-label="Name">{order.name}</td>
                <OrderPriceCell order={order} />
                <OrderQuantityCell order={order} />
                <DeleteOrderCell
                  order={order}
                  label={`Delete order of ${order.name}`}
                  onDelete={() => remove.ask(order)}
                />
                <td data-label="Payment Status">
                  {order.paid ? (
                    <div>
                      <OrderStatusText order={order} view="customer" />
                      <div className="order-transaction text-body-secondary">
                        Transaction Id: <span>{order.transactionId}</span>
                      </div>
                      <TrackingText order={order} />
                    </div>
                  ) : (
                    <Link
                      to={paths.dashboard.payment(order._id)}
                      className="btn btn-brand btn-sm"
                      aria-label={`Pay for ${order.name}`}
                    >
                      Pay
                    </Link>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : null}
      {orders.hasNextPage && list ? (
        <div className="d-flex flex-wrap align-items-center justify-content-center gap-3 mb-3">
          <span className="text-body-secondary">
            Showing {list.length} of {total} orders
          </span>
          <Button
            variant="outline-dark"
            onClick={() => void orders.fetchNextPage()}
            disabled={orders.isFetchingNextPage}
          >
            {orders.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        </div>
      ) : null}
      <DeleteOrderDialog
        remove={remove}
        describe={(order) =>
          `Delete your order of ${order.quantity} PCS of ${order.name}? The parts go back into stock.`
        }
      />
    </section>
  );
}

/** As the server's MAX_ORDERS_PER_PAYMENT: one payment covers at most this many orders. */
const MAX_ORDERS_PER_PAYMENT = 50;

/**
 * One payment, one card entry, for every unpaid order shown (placed one by one or at checkout). Orders
 * without a shipping address get one on the payment page first.
 */
function PayAllUnpaid({ orders }: { orders: readonly Order[] }) {
  const unpaid = orders.filter((order) => order.status === 'unpaid').slice(0, MAX_ORDERS_PER_PAYMENT);
  if (unpaid.length < 2) return null;
  const totalCents = unpaid.reduce((sum, order) => sum + Math.round(order.total * 100), 0);
  return (
    <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
      <Link to={paths.dashboard.payOrders(unpaid.map((order) => order._id))} className="btn btn-brand">
        Pay All Unpaid
      </Link>
      <span className="text-body-secondary">
        {unpaid.length} orders, {formatUsd(totalCents / 100)} in one payment
      </span>
    </div>
  );
}
