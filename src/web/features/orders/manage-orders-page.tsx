import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { toast } from 'react-toastify/unstyled';
import { EmptyState, QueryStatus } from '../../components/query-state.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { OrderStatusText } from './order-status.tsx';
import { DeleteOrderCell, DeleteOrderDialog, OrderPriceCell, OrderQuantityCell } from './order-table.tsx';
import { allOrdersQueryOptions } from './orders-api.ts';
import { useDeleteOrder } from './use-delete-order.ts';
import { useShipOrder } from './use-order-mutations.ts';
import './orders.css';

const PAGE_SIZE = 25;

export function Component() {
  usePageTitle('Manage Orders');
  const [offset, setOffset] = useState(0);
  const orders = useQuery(allOrdersQueryOptions({ limit: PAGE_SIZE, offset }));
  const remove = useDeleteOrder();
  const ship = useShipOrder();
  const shipOrder = (orderId: string) =>
    ship.mutate(orderId, {
      onSuccess: (order) => toast.success(`${order.name} for ${order.userName || order.email} is shipped.`),
      onError: (error) => toast.error(errorMessage(error)),
    });
  const total = orders.data?.total ?? 0;

  return (
    <section aria-labelledby="manage-orders-title">
      <h1 id="manage-orders-title" className="h3 mb-3">
        Manage Orders
      </h1>
      <QueryStatus query={orders} what="the orders" loadingLabel="Loading orders…" />
      {orders.data?.items.length === 0 ? (
        <EmptyState>
          <p className="mb-0">No orders yet.</p>
        </EmptyState>
      ) : null}
      {orders.data && orders.data.items.length > 0 ? (
        <>
          <Table responsive striped hover className="orders-table bg-white align-middle">
            <thead>
              <tr>
                <th scope="col">User Name</th>
                <th scope="col">Email</th>
                <th scope="col">Product Name</th>
                <th scope="col">Order Quantity</th>
                <th scope="col">Price</th>
                <th scope="col">Action</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {orders.data.items.map((order) => (
                <tr key={order._id}>
                  <td data-label="User Name">{order.userName || '—'}</td>
                  <td data-label="Email" className="text-break">
                    {order.email}
                  </td>
                  <td data-label="Product Name">{order.name}</td>
                  <OrderQuantityCell order={order} />
                  <OrderPriceCell order={order} />
                  <DeleteOrderCell
                    order={order}
                    label={`Delete order of ${order.name} by ${order.email}`}
                    onDelete={() => remove.ask(order)}
                  />
                  <td data-label="Status">
                    <div className="d-flex flex-wrap align-items-center gap-2">
                      <OrderStatusText order={order} view="admin" />
                      {order.status === 'paid' ? (
                        <Button
                          size="sm"
                          variant="outline-primary"
                          disabled={ship.isPending && ship.variables === order._id}
                          onClick={() => shipOrder(order._id)}
                        >
                          Ship<span className="visually-hidden"> {`${order.name} for ${order.email}`}</span>
                        </Button>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          {total > PAGE_SIZE ? (
            <nav aria-label="Order pages" className="d-flex align-items-center gap-2">
              <Button
                variant="outline-secondary"
                size="sm"
                disabled={offset === 0}
                onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
              >
                Previous
              </Button>
              <span className="small">
                {offset + 1}–{Math.min(offset + PAGE_SIZE, total)} of {total}
              </span>
              <Button
                variant="outline-secondary"
                size="sm"
                disabled={offset + PAGE_SIZE >= total}
                onClick={() => setOffset(offset + PAGE_SIZE)}
              >
                Next
              </Button>
            </nav>
          ) : null}
        </>
      ) : null}
      <DeleteOrderDialog
        remove={remove}
        describe={(order) =>
          `Delete ${order.email}'s order of ${order.quantity} PCS of ${order.name}? The parts go back into stock.`
        }
      />
    </section>
  );
}
