import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { formatUsd } from '../../../shared/money.ts';
import { paths } from '../../../shared/paths.ts';
import type { CartLine } from '../../../shared/schemas/cart.ts';
import { CartStates } from '../../components/cart-states.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useCart } from '../../lib/cart-context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import './cart.css';

/**
 * The cart. Every part with its unit price, a quantity (within its minimum and the live stock), its line
 * total and Remove; the total, and Checkout (a visitor is asked to sign in first, and comes back here with the cart).
 */
export function Component() {
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
            <div className="bg-white border rounded p-2 p-md-3">
              <Table responsive className="cart-table align-middle mb-0">
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
                    <CartRow key={line.partId} line={line} />
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

function CartRow({ line }: { line: CartLine }) {
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
    setBusy(true);
    try {
      await cart.set(line, quantity);
    } catch (error) {
      toast.error(errorMessage(error));
      setTyped(String(line.quantity));
    } finally {
      setBusy(false);
    }
  };

  return (
    <tr>
      <td>
        <div className="d-flex align-items-center gap-2">
          <img src={line.img} alt="" width={48} height={48} className="cart-thumb rounded" />
          <Link to={paths.part(line.partId)}>{line.name}</Link>
        </div>
        {line.problem ? (
          <p id={problemId} className="text-danger small mb-0">
            {line.problem} ({line.availableQuantity} PCS available)
          </p>
        ) : null}
      </td>
      <td className="text-end">{formatUsd(line.price)}</td>
      <td>
        <Form
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
      <td className="text-end">{formatUsd(line.lineTotal)}</td>
      <td className="text-end">
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
