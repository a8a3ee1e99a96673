import type { UseQueryResult } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router';
import type { z } from 'zod';
import { paths } from '../../../shared/paths.ts';
import type { CreatePaymentIntentResponse, paymentsConfigSchema } from '../../../shared/schemas/payments.ts';
import { LoadError, LoadingSpinner } from '../../components/query-state.tsx';
import type { CardFormProps } from './card-form-props.ts';
import { TestCardForm } from './test-card-form.tsx';

// Stripe's libraries are only downloaded when Stripe is the provider.
const StripeCardForm = lazy(() => import('./stripe-card-form.tsx').then((m) => ({ default: m.StripeCardForm })));

/**
 * The card entry shared by the one-order and the group payment pages: waits for the provider's config and the
 * intent, then shows the provider's card form (Stripe's, or the test gateway's).
 */
export function CardStep({
  config,
  intent,
  billing,
  onSucceeded,
}: {
  config: UseQueryResult<z.infer<typeof paymentsConfigSchema>>;
  intent: UseQueryResult<CreatePaymentIntentResponse>;
} & Omit<CardFormProps, 'clientSecret'>) {
  if (config.isError || intent.isError) {
    return (
      <LoadError
        error={config.error ?? intent.error}
        onRetry={() => {
          void config.refetch();
          void intent.refetch();
        }}
        what="the payment form"
      />
    );
  }
  if (config.isPending) return <LoadingSpinner label="Preparing the payment…" />;
  if (config.data.provider === 'stripe' && config.data.publishableKey) {
    return (
      <Suspense fallback={<LoadingSpinner label="Loading the card form…" />}>
        <StripeCardForm
          publishableKey={config.data.publishableKey}
          clientSecret={intent.data?.clientSecret}
          billing={billing}
          onSucceeded={onSucceeded}
        />
      </Suspense>
    );
  }
  return <TestCardForm clientSecret={intent.data?.clientSecret} billing={billing} onSucceeded={onSucceeded} />;
}

/** The success notice once a payment is recorded: what happened, the provider's transaction id, the way back. */
export function PaidNotice({
  children,
  transactionId,
}: {
  children: ReactNode;
  transactionId: string | null | undefined;
}) {
  return (
    <Alert variant="success" role="status">
      <p className="fw-semibold mb-1">{children}</p>
      <p className="mb-1">
        Your Transaction Id: <span className="payment-transaction-id">{transactionId}</span>
      </p>
      <Link to={paths.dashboard.myOrder} className="alert-link">
        Back to My Order
      </Link>
    </Alert>
  );
}

/** The page's frame while its order(s) load or fail: the plain "Payment" title above the state. */
export function PaymentStateFrame({ children }: { children: ReactNode }) {
  return (
    <>
      <h1 id="payment-title" className="h3">
        Payment
      </h1>
      {children}
    </>
  );
}
