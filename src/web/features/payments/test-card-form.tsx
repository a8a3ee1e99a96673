import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { parseExpiry, testCards } from '../../../shared/schemas/payments.ts';
import { errorMessage } from '../../lib/api-client.ts';
import type { CardFormProps } from './card-form-props.ts';
import { confirmTestCard } from './payments-api.ts';

/** "4242424242424242" → "4242 4242 4242 4242", as the digits are typed. */
function groupDigits(value: string): string {
  return value
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "1230" → "12 / 30" */
function formatExpiry(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

/** One card field: digits, reformatted as they are typed, with the browser's card autocomplete. */
function CardField({
  id,
  label,
  value,
  onChange,
  autoComplete,
  placeholder,
  invalid = false,
}: {
  id: string;
  label: string;
  value: string;
  onChange(typed: string): void;
  autoComplete: string;
  placeholder: string;
  invalid?: boolean;
}) {
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        className="payment-card-input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        inputMode="numeric"
        autoComplete={autoComplete}
        placeholder={placeholder}
        required
        aria-invalid={invalid ? true : undefined}
      />
    </Form.Group>
  );
}

/** The built-in test gateway's card form: labelled fields with the browser's card autocomplete. */
export function TestCardForm({ clientSecret, billing, onSucceeded }: CardFormProps) {
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!clientSecret || paying) return;
    setError(null);
    const parsed = parseExpiry(expiry.replace(/\s/g, ''));
    if (number.replace(/\D/g, '').length < 12) return setError('Your card number is incomplete.');
    if (!parsed) return setError("Your card's expiration date is incomplete.");
    if (!/^\d{3,4}$/.test(cvc)) return setError("Your card's security code is incomplete.");
    setPaying(true);
    try {
      const result = await confirmTestCard({
        clientSecret,
        card: { number, expMonth: parsed.month, expYear: parsed.year, cvc },
        billingDetails: billing,
      });
      await onSucceeded(result.transactionId);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setPaying(false);
    }
  };

  return (
    <Form noValidate onSubmit={submit} aria-describedby="payment-test-mode">
      {/* A note, not role="alert": it is there from the start and must not be announced as an error. */}
      <div id="payment-test-mode" className="alert alert-info payment-test-cards small">
        <strong>Test mode:</strong> no real card is charged and real card numbers are refused. Use a test card with any
        future expiry date and any 3-digit CVC:
        <ul className="mb-0 mt-1">
          {testCards.map((card) => (
            <li key={card.number}>
              <code>{card.number}</code> — {card.outcome}
            </li>
          ))}
        </ul>
      </div>
      <CardField
        id="card-number"
        label="Card number"
        value={number}
        onChange={(typed) => setNumber(groupDigits(typed))}
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        invalid={Boolean(error)}
      />
      <Row>
        <Col xs={6}>
          <CardField
            id="card-expiry"
            label="Expiry (MM / YY)"
            value={expiry}
            onChange={(typed) => setExpiry(formatExpiry(typed))}
            autoComplete="cc-exp"
            placeholder="MM / YY"
          />
        </Col>
        <Col xs={6}>
          <CardField
            id="card-cvc"
            label="CVC"
            value={cvc}
            onChange={(typed) => setCvc(typed.replace(/\D/g, '').slice(0, 4))}
            autoComplete="cc-csc"
            placeholder="CVC"
          />
        </Col>
      </Row>
      {error ? (
        <p className="text-danger fw-semibold" role="alert">
          {error}
        </p>
      ) : null}
      <Button type="submit" className="btn-brand px-4" disabled={!clientSecret || paying}>
        {paying ? <Spinner animation="border" size="sm" role="status" aria-label="Paying" className="me-2" /> : null}
        Pay
      </Button>
    </Form>
  );
}
