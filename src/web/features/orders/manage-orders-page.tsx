import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { Link, useSearchParams } from 'react-router';
import { decodeCursor } from '../../../shared/cursor-codec.ts';
import { type OrderStatus, orderStatuses } from '../../../shared/enums.ts';
import { paths } from '../../../shared/paths.ts';
import { EmptyState, QueryStatus } from '../../components/query-state.tsx';
import { useUrlPaging } from '../../lib/url-paging.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { AdminOrderActions } from './admin-order-actions.tsx';
import { OrderStatusText, TrackingText } from './order-status.tsx';
import {
  DeleteOrderCell,
  DeleteOrderDialog,
  OrderDateCell,
  OrderPriceCell,
  OrderQuantityCell,
} from './order-table.tsx';
import { allOrdersQueryOptions } from './orders-api.ts';
import { useDeleteOrder } from './use-delete-order.ts';
import './orders.css';

const PAGE_SIZE = 25;

/** The status filter: every order but cancelled ones by default, as the lists show them. */
const statusOptions: { value: '' | OrderStatus; label: string }[] = [
  { value: '', label: 'All (not cancelled)' },
  { value: 'unpaid', label: 'Unpaid' },
  { value: 'paid', label: 'Pending to shipped' },
  { value: 'shipped', label: 'Shipped' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'refunded', label: 'Refunded' },
  { value: 'cancelled', label: 'Cancelled' },
];

/**
 * The list's state as its URL holds it (?status=&q=&page=, and after Next or Previous the page's cursor, `after=` or
 * `before=`), so a filtered list can be shared and Back returns to the page before. A hand-edited value the API
 * would refuse is left out.
 */
function readOrdersUrl(params: URLSearchParams) {
  const rawStatus = params.get('status');
  const status: '' | OrderStatus = orderStatuses.find((value) => value === rawStatus) ?? '';
  const q = (params.get('q') ?? '').trim().slice(0, 100);
  const page = Math.min(40_000, Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1));
  const cursorIn = (name: 'after' | 'before') => {
    const value = params.get(name);
    return page > 1 && value && decodeCursor(value)?.o === 'orders' ? value : undefined;
  };
  const after = cursorIn('after');
  const before = after ? undefined : cursorIn('before');
  return { status, q, page, after, before };
}

export function Component() {
  usePageTitle('Manage Orders');
  const [params] = useSearchParams();
  const { status, q, page, after, before } = readOrdersUrl(params);
  const [search, setSearch] = useState(q);
  // Back/forward or a shared link changes the URL: the box follows.
  useEffect(() => setSearch(q), [q]);
  const offset = (page - 1) * PAGE_SIZE;
  const orders = useQuery(
    allOrdersQueryOptions({
      limit: PAGE_SIZE,
      ...(after ? { after } : before ? { before } : { offset }),
      status: status || undefined,
      q,
    }),
  );
  const remove = useDeleteOrder();
  const total = orders.data?.total ?? 0;
  const filtered = status !== '' || q !== '';
  const current = orders.isPlaceholderData ? undefined : orders.data;
  const { go, goNext, goPrevious } = useUrlPaging(page, current);
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    go({ q: search.trim() });
  };

  return (
    <section aria-labelledby="manage-orders-title">
      <h1 id="manage-orders-title" className="h3 mb-3">
        Manage Orders
      </h1>
      <Form
        className="orders-toolbar d-flex flex-wrap align-items-end gap-2 mb-3"
        role="search"
        onSubmit={submitSearch}
      >
        <Form.Group controlId="orders-status">
          <Form.Label className="small mb-1">Status</Form.Label>
          <Form.Select
            size="sm"
            value={status}
            onChange={(event) => go({ status: event.target.value as '' | OrderStatus })}
          >
            {statusOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group controlId="orders-search" className="flex-grow-1">
          <Form.Label className="small mb-1">Search customer or part</Form.Label>
          <Form.Control
            size="sm"
            type="search"
            value={search}
            maxLength={100}
            placeholder="Email, name or part name"
            onChange={(event) => setSearch(event.target.value)}
          />
        </Form.Group>
        <Button type="submit" size="sm" variant="secondary">
          Search
        </Button>
      </Form>
      <QueryStatus query={orders} what="the orders" loadingLabel="Loading orders…" />
      {orders.data?.items.length === 0 ? (
        <EmptyState>
          <p className="mb-0">{filtered ? 'No orders match.' : 'No orders yet.'}</p>
        </EmptyState>
      ) : null}
      {orders.data && orders.data.items.length > 0 ? (
        <>
          {/* Scrolls inside its own box rather than the page, should a narrow desktop not hold every column. */}
          <Table responsive striped hover className="orders-table orders-table-compact bg-white align-middle">
            <thead>
              <tr>
                <th scope="col">Order</th>
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
                  <OrderDateCell
                    order={order}
                    withTime
                    link={
                      <Link to={paths.dashboard.order(order._id)}>
                        Details
                        <span className="visually-hidden">
                          {' '}
                          of the order of {order.name} by {order.email}
                        </span>
                      </Link>
                    }
                  />
                  <td data-label="User Name">
                    <ClampedText text={order.userName || '—'} />
                  </td>
                  <td data-label="Email">
                    <ClampedText text={order.email} className="orders-email" />
                  </td>
                  <td data-label="Product Name">
                    <ClampedText text={order.name} />
                  </td>
                  <OrderQuantityCell order={order} />
                  <OrderPriceCell order={order} />
                  <DeleteOrderCell
                    order={order}
                    label={`Delete order of ${order.name} by ${order.email}`}
                    onDelete={() => remove.ask(order)}
                  />
                  <td data-label="Status">
                    <div className="order-status-cell d-flex flex-column align-items-end align-items-lg-start">
                      <OrderStatusText order={order} view="admin" />
                      <TrackingText order={order} />
                      <AdminOrderActions order={order} />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          {total > PAGE_SIZE ? (
            <nav aria-label="Order pages" className="d-flex align-items-center gap-2">
              {/* outline-dark: Bootstrap's secondary grey on the dashboard's light background is 4.47:1, under AA. */}
              <Button variant="outline-dark" size="sm" disabled={page <= 1} onClick={goPrevious}>
                Previous
              </Button>
              <span className="small">
                {offset + 1}–{Math.min(offset + PAGE_SIZE, total)} of {total}
              </span>
              <Button variant="outline-dark" size="sm" disabled={offset + PAGE_SIZE >= total} onClick={goNext}>
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

/**
 * A long email, name or part name: on a desktop at most two lines of the row (the rest behind an ellipsis, the whole
 * text in the tooltip, the order page and to screen readers); on a phone's stacked card, all of it.
 */
function ClampedText({ text, className = '' }: { text: string; className?: string }) {
  return (
    <span className={`orders-clamp ${className}`} title={text}>
      {text}
    </span>
  );
}
