import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router';
import { toastMessages } from '../../../shared/messages.ts';
import { formatUsd } from '../../../shared/money.ts';
import { paths } from '../../../shared/paths.ts';
import type { Order } from '../../../shared/schemas/orders.ts';
import { LoadError, LoadingSpinner } from '../../components/query-state.tsx';
import { namesNothing } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { CardStep, PaidNotice, PaymentStateFrame } from './payment-steps.tsx';
import { paymentIntentQueryOptions, paymentsConfigQueryOptions } from './payments-api.ts';
import './payments.css';

/** Records a payment the provider confirmed against the order; resolves with the order as the server now has it. */
type MarkPaid = (transactionId: string) => Promise<Order>;

/**
 * Spec §2 Payment: the order's amount and a card form. The order is the orders feature's: the app's route loads it
 * and says how a payment is recorded against it.
 */
export function PaymentPage({
  order,
  markPaid,
  addressStep,
}: {
  order: UseQueryResult<Order>;
  markPaid: MarkPaid;
  /** Asks for a shipping address, shown before the card when the order has none. */
  addressStep?: ReactNode;
}) {
  usePageTitle('Payment');

  return (
    <section aria-labelledby="payment-title" className="payment-panel">
      {order.isPending ? (
        <PaymentStateFrame>
          <LoadingSpinner label="Loading your order…" />
        </PaymentStateFrame>
      ) : order.isError ? (
        <PaymentStateFrame>
          {namesNothing(order.error) ? (
            <Alert variant="warning">
              This order does not exist. <Link to={paths.dashboard.myOrder}>Back to My Order</Link>
            </Alert>
          ) : (
            <LoadError error={order.error} onRetry={() => void order.refetch()} what="your order" />
          )}
        </PaymentStateFrame>
      ) : (
        <PaymentPanel order={order.data} markPaid={markPaid} addressStep={addressStep} />
      )}
    </section>
  );
}

function PaymentPanel({ order, markPaid, addressStep }: { order: Order; markPaid: MarkPaid; addressStep?: ReactNode }) {
  const { user } = useAuth();
  const [paidWith, setPaidWith] = useState<string | null>(null);
  // While a confirmed payment is being recorded, the order turns paid under the form: that is this payment, not an
  // earlier one, so the form stays until the success message replaces it.
  const [recording, setRecording] = useState(false);
  const unpaid = !order.paid && paidWith === null;
  // Nothing is paid that cannot be shipped; an order placed without an address gets one first.
  const needsAddress = unpaid && order.address.trim() === '';
  // No intent is asked for while a payment is recorded or once it is: the order is paid, and the server refuses one.
  const payable = unpaid && !needsAddress && !recording;
  const config = useQuery({ ...paymentsConfigQueryOptions, enabled: payable });
  const intent = useQuery({ ...paymentIntentQueryOptions(order._id), enabled: payable });
  const name = user?.displayName || order.userName || 'there';
  // Paid by this page, or before it (not while this page's own payment is still being recorded).
  const paid = paidWith !== null || (order.paid && !recording);

  const onSucceeded = async (transactionId: string) => {
    setRecording(true);
    try {
      const updated = await markPaid(transactionId);
      setPaidWith(updated.transactionId ?? transactionId);
    } finally {
      setRecording(false);
    }
  };

  return (
    <div className="bg-white border rounded p-3 p-md-4">
      <p className="mb-1">Hello, {name}</p>
      <h1 id="payment-title" className="h3">
        {paid ? `Paid for ${order.name}` : `Please Pay for ${order.name}`}
      </h1>
      <p className="fs-5">
        {paid ? 'Paid: ' : 'Please Pay: '}
        <strong>{formatUsd(order.total)}</strong>
        <span className="small text-body-secondary d-block">
          {order.quantity} PCS × {formatUsd(order.price)}
        </span>
      </p>
      {paidWith ? (
        <PaidNotice transactionId={paidWith}>{toastMessages.paymentCompleted}</PaidNotice>
      ) : order.paid && !recording ? (
        <PaidNotice transactionId={order.transactionId}>
          This order is already paid{order.status === 'shipped' ? ' and shipped' : ''}.
        </PaidNotice>
      ) : needsAddress && addressStep ? (
        addressStep
      ) : (
        <CardStep
          config={config}
          intent={intent}
          billing={{ name, email: user?.email ?? order.email }}
          onSucceeded={onSucceeded}
        />
      )}
    </div>
  );
}
