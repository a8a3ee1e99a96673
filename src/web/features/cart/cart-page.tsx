import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { dollarsToCents, formatUsd } from '../../../shared/money.ts';
import { checkOrderQuantity, quantityRefusalText, stockOutRefusal } from '../../../shared/order-rules.ts';
import { paths } from '../../../shared/paths.ts';
import type { CartLine } from '../../../shared/schemas/cart.ts';
import { type CartFit, CartFitWarning, type LineFit, LineFitNote } from '../../components/cart-fit.tsx';
import { CartStates } from '../../components/cart-states.tsx';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { useCart } from '../../lib/cart-context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import './cart.css';

/**
 * Why a quantity the server refused cannot be set, in the cart's words: more than the stock says how many there are.
 */
function refusalText(error: unknown): string {
  if (error instanceof ApiError && error.code === 'stock_out') {
    const available = (error.details?.[0] as { availableQuantity?: unknown } | undefined)?.availableQuantity;
    if (typeof available === 'number') return quantityRefusalText(stockOutRefusal(available));
  }
  return errorMessage(error);
}

/**
 * The cart. Every part with its unit price, a quantity (within its minimum and the live stock), its line
 * total and Remove; the total, and Checkout (a visitor is asked to sign in first, and comes back here with the cart).
 * With a vehicle chosen, each line says whether it fits it (`fit`, from the app), and the lines that do not are
 * marked. On a phone the table is a stacked list: every control on the screen, nothing scrolls sideways.
 */
export function CartPage({ fit = null }: { fit?: CartFit | null }) {
  usePageTitle('Cart');
  const cart = useCart();
  const navigate = useNavigate();
  const blocked = cart.lines.some((line) => line.problem !== null);

  return (
    <Container className="py-4">
      <h1 className="h3 mb-4">Your Cart</h1>
      <CartStates cart={cart}>
        {() => (
          <>
            {cart.owner === 'visitor' ? (
              <Alert variant="info">Prices and stock are checked again when you sign in and check out.</Alert>
            ) : null}
            <CartFitWarning fit={fit} partIds={cart.lines.map((line) => line.partId)} />
            <div className="bg-white border rounded p-2 p-md-3">
              <Table className="cart-table align-middle mb-0">
                <caption className="visually-hidden">The parts in your cart</caption>
                <thead>
                  <tr>
                    <th scope="col">Part</th>
                    <th scope="col" className="text-end">
                      Unit Price
                    </th>
                    <th scope="col">Quantity</th>
                    <th scope="col" className="text-end">
                      Line Total
                    </th>
                    <th scope="col">
                      <span className="visually-hidden">Remove</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {cart.lines.map((line) => (
                    <CartRow key={line.partId} line={line} fit={fit?.of(line.partId)} />
                  ))}
                </tbody>
              </Table>
            </div>
            <div className="d-flex flex-wrap justify-content-end align-items-center gap-3 mt-3">
              <p className="fs-5 mb-0" aria-live="polite">
                Total: <strong className="text-brand">{formatUsd(cart.total)}</strong>
              </p>
              <Button
                className="btn-brand"
                disabled={blocked}
                aria-describedby={blocked ? 'cart-blocked' : undefined}
                onClick={() => navigate(paths.checkout)}
              >
                Checkout
              </Button>
            </div>
            {blocked ? (
              <p id="cart-blocked" className="text-danger text-end mt-2">
                Fix or remove the parts marked above to check out.
              </p>
            ) : null}
          </>
        )}
      </CartStates>
    </Container>
  );
}

function CartRow({ line, fit }: { line: CartLine; fit: LineFit | undefined }) {
  const cart = useCart();
  const [typed, setTyped] = useState(String(line.quantity));
  // The cart changed under the field (a merge at sign-in, another tab): show what it holds now.
  useEffect(() => setTyped(String(line.quantity)), [line.quantity]);
  const [busy, setBusy] = useState(false);
  const inputId = `cart-quantity-${line.partId}`;
  const problemId = `cart-problem-${line.partId}`;

  const commit = async () => {
    const quantity = Number(typed);
    if (!Number.isInteger(quantity) || quantity === line.quantity || busy) return;
    // The one order rule, before asking the server: the line knows the part's minimum, price and live stock.
    const check = checkOrderQuantity(
      {
        minimumOrder: line.minimumOrder,
        availableQuantity: line.availableQuantity,
        priceCents: dollarsToCents(line.price),
      },
      quantity,
    );
    if (!check.ok) {
      toast.error(quantityRefusalText(check));
      setTyped(String(line.quantity));
      return;
    }
    setBusy(true);
    try {
      await cart.set(line, quantity);
    } catch (error) {
      toast.error(refusalText(error));
      setTyped(String(line.quantity));
    } finally {
      setBusy(false);
    }
  };

  return (
    <tr className={fit?.misfit ? 'cart-line-misfit' : undefined}>
      <td className="cart-part">
        <div className="d-flex align-items-center gap-2">
          <img src={line.img} alt="" width={48} height={48} className="cart-thumb rounded" />
          <Link to={paths.part(line.partId)}>{line.name}</Link>
        </div>
        <LineFitNote fit={fit} />
        {line.problem ? (
          <p id={problemId} className="text-danger small mb-0">
            {line.problem} ({line.availableQuantity} PCS available)
          </p>
        ) : null}
      </td>
      <td className="text-end cart-price" data-label="Unit Price">
        {formatUsd(line.price)}
      </td>
      <td className="cart-quantity-cell">
        <Form
          // The order rule's words (the stock, the minimum), not the browser's, for a quantity out of bounds.
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void commit();
          }}
        >
          <Form.Label htmlFor={inputId} className="visually-hidden">
            Quantity of {line.name}
          </Form.Label>
          <Form.Control
            id={inputId}
            className="cart-quantity"
            type="number"
            inputMode="numeric"
            min={line.minimumOrder}
            max={line.availableQuantity}
            step={1}
            value={typed}
            disabled={busy}
            aria-invalid={line.problem ? true : undefined}
            aria-describedby={`${inputId}-hint${line.problem ? ` ${problemId}` : ''}`}
            onChange={(event) => setTyped(event.target.value)}
            onBlur={() => void commit()}
          />
          <Form.Text id={`${inputId}-hint`} className="small text-body-secondary">
            Min {line.minimumOrder}, {line.availableQuantity} in stock
          </Form.Text>
        </Form>
      </td>
      <td className="text-end cart-line-total" data-label="Line Total">
        {formatUsd(line.lineTotal)}
      </td>
      <td className="text-end cart-remove">
        <Button
          variant="outline-danger"
          size="sm"
          disabled={busy}
          aria-label={`Remove ${line.name}`}
          onClick={async () => {
            setBusy(true);
            try {
              await cart.remove(line.partId);
            } catch (error) {
              toast.error(errorMessage(error));
              setBusy(false);
            }
          }}
        >
          Remove
        </Button>
      </td>
    </tr>
  );
}
