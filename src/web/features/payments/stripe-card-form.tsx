import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { LoadError, LoadingSpinner } from '../../components/query-state.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import type { CardFormProps } from './card-form-props.ts';

/** Stripe.js is fetched from Stripe only here, once per key: no other page loads a third-party script. */
const stripeByKey = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let promise = stripeByKey.get(publishableKey);
  if (!promise) {
    // A failed download (offline, blocked) must be retryable, not cached for the life of the page.
    promise = loadStripe(publishableKey).catch((error: unknown) => {
      stripeByKey.delete(publishableKey);
      throw error;
    });
    stripeByKey.set(publishableKey, promise);
  }
  return promise;
}

export function StripeCardForm(props: CardFormProps & { publishableKey: string }) {
  const [attempt, setAttempt] = useState(0);
  const [stripe, setStripe] = useState<{ promise: Promise<Stripe | null> } | { failed: true } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry trigger.
  useEffect(() => {
    let cancelled = false;
    const promise = stripeFor(props.publishableKey);
    promise.then(
      () => !cancelled && setStripe({ promise }),
      () => !cancelled && setStripe({ failed: true }),
    );
    return () => {
      cancelled = true;
    };
  }, [props.publishableKey, attempt]);

  if (stripe === null) return <LoadingSpinner label="Loading the card form from Stripe…" />;
  if ('failed' in stripe) {
    return (
      <LoadError
        error={new Error('Stripe could not be reached.')}
        onRetry={() => {
          setStripe(null);
          setAttempt((n) => n + 1);
        }}
        what="the card form"
      />
    );
  }
  return (
    <Elements stripe={stripe.promise}>
      <StripeCardFields {...props} />
    </Elements>
  );
}

/** Spec §7: the card is confirmed at Stripe with the billing name and email; Stripe's message shows in red. */
function StripeCardFields({ clientSecret, billing, onSucceeded }: CardFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [error, setError] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card || !clientSecret || paying) return;
    setError(null);
    setPaying(true);
    try {
      const { error: stripeError, paymentIntent } = await stripe.confirmCardPayment(clientSecret, {
        payment_method: { card, billing_details: { name: billing.name, email: billing.email } },
      });
      if (stripeError) {
        setError(stripeError.message ?? 'Your card could not be charged.');
      } else if (paymentIntent?.status === 'succeeded') {
        await onSucceeded(paymentIntent.id);
      } else {
        setError('The payment did not complete. Please try again.');
      }
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setPaying(false);
    }
  };

  return (
    <Form noValidate onSubmit={submit}>
      <fieldset className="mb-3">
        <legend className="form-label fs-6 mb-2">Card details</legend>
        <div className="stripe-card-element">
          <CardElement options={{ hidePostalCode: true, style: { base: { fontSize: '16px', color: '#1f2329' } } }} />
        </div>
      </fieldset>
      {error ? (
        <p className="text-danger fw-semibold" role="alert">
          {error}
        </p>
      ) : null}
      <Button type="submit" className="btn-brand px-4" disabled={!stripe || !clientSecret || paying}>
        {paying ? <Spinner animation="border" size="sm" role="status" aria-label="Paying" className="me-2" /> : null}
        Pay
      </Button>
    </Form>
  );
}
