import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { toastMessages } from '../../../shared/messages.ts';
import { formatUsd } from '../../../shared/money.ts';
import { paths } from '../../../shared/paths.ts';
import type { Order } from '../../../shared/schemas/orders.ts';
import type { ConfirmPaymentResponse } from '../../../shared/schemas/payments.ts';
import { EmptyState, LoadError, LoadingSpinner } from '../../components/query-state.tsx';
import { useAuth } from '../../lib/auth-context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { CardStep, PaidNotice, PaymentStateFrame } from './payment-steps.tsx';
import { groupPaymentIntentQueryOptions, paymentsConfigQueryOptions } from './payments-api.ts';
import './payments.css';

export interface GroupOrders {
  status: 'pending' | 'error' | 'success';
  error: unknown;
  retry(): void;
  orders: Order[];
}

interface GroupPaymentProps {
  group: GroupOrders;
  /** What asks for a shipping address for orders that have none (the app passes the checkout feature's step). */
  addressStep(orderIds: readonly string[]): ReactNode;
  /** Records the payment the provider confirmed against every order it pays. */
  confirm(transactionId: string): Promise<ConfirmPaymentResponse>;
}

/**
 * One payment for several orders (a checkout's, or Pay All Unpaid): the orders and their total, a
 * shipping address first for any order without one, then one card entry for the amount the server computed.
 */
export function GroupPaymentPage({ group, addressStep, confirm }: GroupPaymentProps) {
  usePageTitle('Payment');
  return (
    <section aria-labelledby="payment-title" className="payment-panel">
      {group.status === 'pending' ? (
        <PaymentStateFrame>
          <LoadingSpinner label="Loading your orders…" />
        </PaymentStateFrame>
      ) : group.status === 'error' ? (
        <PaymentStateFrame>
          <LoadError error={group.error} onRetry={group.retry} what="your orders" />
        </PaymentStateFrame>
      ) : (
        <GroupPanel orders={group.orders} addressStep={addressStep} confirm={confirm} />
      )}
    </section>
  );
}

function GroupPanel({ orders, addressStep, confirm }: { orders: Order[] } & Omit<GroupPaymentProps, 'group'>) {
  const { user } = useAuth();
  const [paid, setPaid] = useState<ConfirmPaymentResponse | null>(null);
  // The orders a confirmed payment is being recorded for. Recording it refreshes the orders one by one, so for a
  // moment some read paid and some not: the page keeps showing (and asking no new intent for) the orders it paid,
  // where a narrower unpaid list would have asked the server for an intent for orders already paid (answered 409).
  const [recording, setRecording] = useState<readonly Order[] | null>(null);
  const unpaid = orders.filter((order) => order.status === 'unpaid');
  const unaddressed = unpaid.filter((order) => order.address.trim() === '');
  const ready = paid === null && recording === null && unpaid.length > 0 && unaddressed.length === 0;
  const config = useQuery({ ...paymentsConfigQueryOptions, enabled: ready });
  const intent = useQuery({
    ...groupPaymentIntentQueryOptions((recording ?? unpaid).map((order) => order._id)),
    enabled: ready,
  });
  const name = user?.displayName || orders[0]?.userName || 'there';
  const email = user?.email ?? orders[0]?.email ?? '';

  const onSucceeded = async (transactionId: string) => {
    setRecording(unpaid);
    try {
      setPaid(await confirm(transactionId));
    } finally {
      setRecording(null);
    }
  };

  const shown = paid ? paid.orders : (recording ?? unpaid);
  const totalCents = shown.reduce((sum, order) => sum + Math.round(order.total * 100), 0);
  const count = `${shown.length} ${shown.length === 1 ? 'Order' : 'Orders'}`;
  return (
    <div className="bg-white border rounded p-3 p-md-4">
      <p className="mb-1">Hello, {name}</p>
      <h1 id="payment-title" className="h3">
        {paid ? `Paid for ${count}` : `Please Pay for ${count}`}
      </h1>
      {shown.length > 0 ? (
        <ul className="list-unstyled mb-2">
          {shown.map((order) => (
            <li key={order._id} className="d-flex justify-content-between gap-2 py-1 border-bottom">
              <span>
                {order.name} × {order.quantity}
              </span>
              <span>{formatUsd(order.total)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {paid ? (
        <>
          <p className="fs-5">
            Paid: <strong>{formatUsd(totalCents / 100)}</strong>
          </p>
          <PaidNotice transactionId={paid.transactionId}>{toastMessages.paymentCompleted}</PaidNotice>
        </>
      ) : unpaid.length === 0 && recording === null ? (
        <EmptyState>
          <p className="mb-2">There is nothing left to pay here.</p>
          <Link to={paths.dashboard.myOrder}>Back to My Order</Link>
        </EmptyState>
      ) : (
        <>
          <p className="fs-5">
            Please Pay: <strong>{formatUsd(totalCents / 100)}</strong>
          </p>
          {unaddressed.length > 0 && recording === null ? (
            addressStep(unaddressed.map((order) => order._id))
          ) : (
            <CardStep config={config} intent={intent} billing={{ name, email }} onSucceeded={onSucceeded} />
          )}
        </>
      )}
    </div>
  );
}
