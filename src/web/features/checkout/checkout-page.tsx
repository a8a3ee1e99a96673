import { useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Row from 'react-bootstrap/Row';
import { Link, useNavigate } from 'react-router';
import { formatUsd } from '../../../shared/money.ts';
import { paths } from '../../../shared/paths.ts';
import type { ShipTo } from '../../../shared/schemas/addresses.ts';
import { type CartFit, CartFitWarning, LineFitNote } from '../../components/cart-fit.tsx';
import { CartStates } from '../../components/cart-states.tsx';
import { ApiError, errorMessage, SubmitKeys } from '../../lib/api-client.ts';
import { useCart } from '../../lib/cart-context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { AddressPicker } from './address-picker.tsx';
import { useCheckout } from './use-checkout-mutations.ts';

/** A refused checkout names each line that cannot be ordered and why (the order rule's words). */
function refusedLines(error: unknown): { partId: string; message: string }[] {
  if (!(error instanceof ApiError) || error.code !== 'checkout_refused' || !error.details) return [];
  return (error.details as { partId?: unknown; message?: unknown }[]).flatMap((detail) =>
    typeof detail.partId === 'string' && typeof detail.message === 'string'
      ? [{ partId: detail.partId, message: detail.message }]
      : [],
  );
}

/**
 * Checkout. Where the orders ship (a saved address or a new one, required), what will be ordered, and one
 * button that places every line as an order (all or none) and goes on to pay for them all at once. With a vehicle
 * chosen, each line says whether it fits it (`fit`, from the app), and the lines that do not are marked.
 */
export function CheckoutPage({ fit = null }: { fit?: CartFit | null }) {
  usePageTitle('Checkout');
  const cart = useCart();
  const navigate = useNavigate();
  const placing = useCheckout();
  const inFlight = useRef(false);
  const [submitKeys] = useState(() => new SubmitKeys());

  const place = (shipTo: ShipTo) => {
    // The ref closes the gap before the disabled button renders (Enter pressed twice).
    if (inFlight.current) return;
    inFlight.current = true;
    const state = { shipTo, lines: cart.lines.map((line) => [line.partId, line.quantity]) };
    placing.mutate(
      { shipTo, idempotencyKey: submitKeys.keyFor(state) },
      {
        onSuccess: (result) => navigate(paths.dashboard.payOrders(result.orders.map((order) => order._id))),
        onSettled: () => {
          inFlight.current = false;
        },
      },
    );
  };

  const refused = refusedLines(placing.error);
  const names = new Map(cart.lines.map((line) => [line.partId, line.name]));
  const blocked = cart.lines.some((line) => line.problem !== null);

  return (
    <Container className="py-4">
      <h1 className="h3 mb-4">Checkout</h1>
      <CartStates cart={cart}>
        {() => (
          <Row className="g-4">
            <Col md={5} className="order-md-2">
              <section aria-labelledby="checkout-summary" className="bg-white border rounded p-3">
                <h2 id="checkout-summary" className="h5">
                  Your Order
                </h2>
                <CartFitWarning fit={fit} partIds={cart.lines.map((line) => line.partId)} />
                <ul className="list-unstyled mb-2">
                  {cart.lines.map((line) => {
                    const lineFit = fit?.of(line.partId);
                    return (
                      <li
                        key={line.partId}
                        className={`py-1 border-bottom${lineFit?.misfit ? ' cart-line-misfit ps-2' : ''}`}
                      >
                        <div className="d-flex justify-content-between gap-2">
                          <span>
                            {line.name} × {line.quantity}
                          </span>
                          <span>{formatUsd(line.lineTotal)}</span>
                        </div>
                        <LineFitNote fit={lineFit} />
                      </li>
                    );
                  })}
                </ul>
                <p className="fs-5 mb-0 d-flex justify-content-between">
                  <span>Total</span>
                  <strong className="text-brand">{formatUsd(cart.total)}</strong>
                </p>
                <p className="small text-body-secondary mb-0">
                  Each part becomes its own order in My Order; you pay for them all at once.
                </p>
              </section>
            </Col>
            <Col md={7} className="order-md-1">
              <section aria-labelledby="checkout-ship" className="bg-white border rounded p-3 p-md-4">
                <h2 id="checkout-ship" className="h5">
                  Delivery
                </h2>
                {blocked ? (
                  <Alert variant="warning">
                    Some parts in your cart cannot be ordered as they are. <Link to={paths.cart}>Back to the cart</Link>
                  </Alert>
                ) : null}
                {placing.isError ? (
                  <Alert variant="danger" role="alert">
                    <p className="mb-1">{errorMessage(placing.error)}</p>
                    {refused.length > 0 ? (
                      <ul className="mb-0">
                        {refused.map((line) => (
                          <li key={line.partId}>
                            {names.get(line.partId) ?? 'A part'}: {line.message}
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </Alert>
                ) : null}
                <AddressPicker
                  submitLabel="Place Order And Pay"
                  busy={placing.isPending}
                  busyLabel="Placing your orders"
                  disabled={blocked}
                  onSubmit={place}
                />
              </section>
            </Col>
          </Row>
        )}
      </CartStates>
    </Container>
  );
}
