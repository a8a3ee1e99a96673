import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import Table from 'react-bootstrap/Table';
import { Link, useParams } from 'react-router';
import { formatUsd } from '../../../shared/money.ts';
import { paths } from '../../../shared/paths.ts';
import type { OrderDetail } from '../../../shared/schemas/orders.ts';
import { QueryStatus } from '../../components/query-state.tsx';
import { useAuth } from '../../lib/auth-context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { AdminOrderActions } from './admin-order-actions.tsx';
import { orderStatusLabel } from './order-status.tsx';
import { orderDetailQueryOptions } from './orders-api.ts';
import './orders.css';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string | null) => (iso ? dateTime.format(new Date(iso)) : '—');
/** The short number mails and the shop quote: the id's first block. */
const orderNumber = (id: string) => id.slice(0, 8).toUpperCase();

const eventLabels: Record<OrderDetail['timeline'][number]['event'], string> = {
  placed: 'Placed',
  paid: 'Paid',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  expired: 'Expired (not paid in time)',
  refunded: 'Refunded',
  disputed: 'Payment disputed',
};

/** /dashboard/order/{orderId}: the order page, for its buyer and for admins. */
export function Component() {
  const { orderId = '' } = useParams();
  const { user } = useAuth();
  const isAdmin = user?.isAdmin ?? false;
  const order = useQuery(orderDetailQueryOptions(orderId));
  usePageTitle(order.data ? `Order #${orderNumber(order.data._id)}` : 'Order');
  const back = isAdmin ? paths.dashboard.manageOrders : paths.dashboard.myOrder;

  return (
    <section aria-labelledby="order-title" className="order-page">
      <p className="mb-2">
        <Link to={back}>← {isAdmin ? 'Manage Orders' : 'My Order'}</Link>
      </p>
      <QueryStatus query={order} what="this order" loadingLabel="Loading the order…" />
      {order.data ? <OrderDetails order={order.data} isAdmin={isAdmin} /> : null}
    </section>
  );
}

function OrderDetails({ order, isAdmin }: { order: OrderDetail; isAdmin: boolean }) {
  const mine = !isAdmin;
  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h1 id="order-title" className="h3 mb-0">
          Order #{orderNumber(order._id)}
        </h1>
        <Badge bg="light" text="dark" className={`order-status-${order.status} border`}>
          {orderStatusLabel(order, isAdmin ? 'admin' : 'customer')}
        </Badge>
      </div>
      {mine && order.status === 'unpaid' ? (
        <p>
          <Link to={paths.dashboard.payment(order._id)} className="btn btn-brand btn-sm">
            Pay {formatUsd(order.total)}
          </Link>
        </p>
      ) : null}
      {isAdmin && (order.status === 'paid' || order.status === 'shipped') ? (
        // On white, as in the tables: the outline buttons keep their contrast.
        <div className="mb-3 p-2 bg-white rounded border">
          <AdminOrderActions order={order} />
        </div>
      ) : null}

      <Card className="mb-3">
        <Card.Body>
          <h2 className="h5">Items</h2>
          <Table responsive={false} className="order-items mb-0 align-middle">
            <thead>
              <tr>
                <th scope="col">Part</th>
                <th scope="col" className="text-end">
                  Unit Price
                </th>
                <th scope="col" className="text-end">
                  Quantity
                </th>
                <th scope="col" className="text-end">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {order.items.map((item) => (
                <tr key={`${item.partId ?? item.name}`}>
                  <td>{item.partId ? <Link to={paths.part(item.partId)}>{item.name}</Link> : item.name}</td>
                  <td className="text-end">{formatUsd(item.unitPrice)}</td>
                  <td className="text-end">{item.quantity} PCS</td>
                  <td className="text-end">{formatUsd(item.lineTotal)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={3} className="text-end">
                  Order Total
                </th>
                <td className="text-end fw-bold">{formatUsd(order.total)}</td>
              </tr>
            </tfoot>
          </Table>
        </Card.Body>
      </Card>

      <Row className="g-3 mb-3">
        <FactsCard title="Shipping">
          <dt>Customer</dt>
          <dd>
            {order.userName ? `${order.userName} · ` : ''}
            <span className="text-break">{order.email}</span>
          </dd>
          <dt>Ship To</dt>
          <dd>{order.address || 'No address given yet'}</dd>
          <dt>Phone</dt>
          <dd>{order.phone || '—'}</dd>
          <dt>Carrier</dt>
          <dd>{order.carrier || '—'}</dd>
          <dt>Tracking Number</dt>
          <dd className="font-monospace text-break">{order.trackingNumber || '—'}</dd>
        </FactsCard>
        <FactsCard title="Payment">
          <dt>Placed</dt>
          <dd>{when(order.placedAt)}</dd>
          <dt>Paid</dt>
          <dd>{when(order.paidAt)}</dd>
          <dt>Transaction Id</dt>
          <dd className="font-monospace text-break">{order.transactionId ?? '—'}</dd>
          {order.refundedAt ? (
            <>
              <dt>Refunded</dt>
              <dd>{when(order.refundedAt)}</dd>
            </>
          ) : null}
        </FactsCard>
      </Row>

      <Card>
        <Card.Body>
          <h2 className="h5">Timeline</h2>
          <ol className="order-timeline mb-0">
            {order.timeline.map((step) => (
              <li key={`${step.event}-${step.at}`}>
                <span className="fw-semibold">{eventLabels[step.event]}</span>{' '}
                <time dateTime={step.at} className="text-body-secondary">
                  {when(step.at)}
                </time>
              </li>
            ))}
          </ol>
        </Card.Body>
      </Card>
    </>
  );
}

/** One half of the order's facts (shipping, payment): a titled card holding a definition list's terms and values. */
function FactsCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Col md={6}>
      <Card className="h-100">
        <Card.Body>
          <h2 className="h5">{title}</h2>
          <dl className="order-facts mb-0">{children}</dl>
        </Card.Body>
      </Card>
    </Col>
  );
}
