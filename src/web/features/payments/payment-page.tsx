import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router';
import { toastMessages } from '../../../shared/messages.ts';
import { formatUsd } from '../../../shared/money.ts';
import type { Order } from '../../../shared/schemas/orders.ts';
import { LoadError, LoadingSpinner } from '../../components/query-state.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { paths } from '../../lib/paths.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { paymentIntentQueryOptions, paymentsConfigQueryOptions } from './payments-api.ts';
import { TestCardForm } from './test-card-form.tsx';
import './payments.css';

// Stripe's libraries are only downloaded when Stripe is the provider.
const StripeCardForm = lazy(() => import('./stripe-card-form.tsx').then((m) => ({ default: m.StripeCardForm })));

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
  /** Issue 12: asks for a shipping address, shown before the card when the order has none. */
  addressStep?: ReactNode;
}) {
  usePageTitle('Payment');

  return (
    <section aria-labelledby="payment-title" className="payment-panel">
      {order.isPending ? (
        <>
          <h1 id="payment-title" className="h3">
            Payment
          </h1>
          <LoadingSpinner label="Loading your order…" />
        </>
      ) : order.isError ? (
        <>
          <h1 id="payment-title" className="h3">
            Payment
          </h1>
          {order.error instanceof ApiError && order.error.status === 404 ? (
            <Alert variant="warning">
              This order does not exist. <Link to={paths.dashboard.myOrder}>Back to My Order</Link>
            </Alert>
          ) : (
            <LoadError error={order.error} onRetry={() => void order.refetch()} what="your order" />
          )}
        </>
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
  // Issue 12: nothing is paid that cannot be shipped; an order placed without an address gets one first.
  const needsAddress = unpaid && order.address.trim() === '';
  const config = useQuery({ ...paymentsConfigQueryOptions, enabled: unpaid && !needsAddress });
  const intent = useQuery({ ...paymentIntentQueryOptions(order._id), enabled: unpaid && !needsAddress });
  const name = user?.displayName || order.userName || 'there';

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
        Please Pay for {order.name}
      </h1>
      <p className="fs-5">
        Please Pay: <strong>{formatUsd(order.total)}</strong>
        <span className="small text-body-secondary d-block">
          {order.quantity} PCS × {formatUsd(order.price)}
        </span>
      </p>
      {paidWith ? (
        <Alert variant="success" role="status">
          <p className="fw-semibold mb-1">{toastMessages.paymentCompleted}</p>
          <p className="mb-1">
            Your Transaction Id: <span className="payment-transaction-id">{paidWith}</span>
          </p>
          <Link to={paths.dashboard.myOrder} className="alert-link">
            Back to My Order
          </Link>
        </Alert>
      ) : order.paid && !recording ? (
        <Alert variant="success" role="status">
          <p className="fw-semibold mb-1">
            This order is already paid{order.status === 'shipped' ? ' and shipped' : ''}.
          </p>
          <p className="mb-1">
            Your Transaction Id: <span className="payment-transaction-id">{order.transactionId}</span>
          </p>
          <Link to={paths.dashboard.myOrder} className="alert-link">
            Back to My Order
          </Link>
        </Alert>
      ) : needsAddress && addressStep ? (
        addressStep
      ) : config.isError || intent.isError ? (
        <LoadError
          error={config.error ?? intent.error}
          onRetry={() => {
            void config.refetch();
            void intent.refetch();
          }}
          what="the payment form"
        />
      ) : config.isPending ? (
        <LoadingSpinner label="Preparing the payment…" />
      ) : config.data.provider === 'stripe' && config.data.publishableKey ? (
        <Suspense fallback={<LoadingSpinner label="Loading the card form…" />}>
          <StripeCardForm
            publishableKey={config.data.publishableKey}
            clientSecret={intent.data?.clientSecret}
            billing={{ name, email: user?.email ?? order.email }}
            onSucceeded={onSucceeded}
          />
        </Suspense>
      ) : (
        <TestCardForm
          clientSecret={intent.data?.clientSecret}
          billing={{ name, email: user?.email ?? order.email }}
          onSucceeded={onSucceeded}
        />
      )}
    </div>
  );
}
