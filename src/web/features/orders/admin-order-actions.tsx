import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify/unstyled';
import { formatUsd } from '../../../shared/money.ts';
import { type Order, type ShipOrderBody, shipOrderBodySchema } from '../../../shared/schemas/orders.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError, FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { applyServerFieldErrors } from '../../lib/form.ts';
import { useDeliverOrder, useRefundOrder, useShipOrder } from './use-order-mutations.ts';

const who = (order: Order) => order.userName || order.email;

/**
 * The admin's next step for an order: Ship (carrier and tracking number, then a confirmation), Mark
 * Delivered once shipped, and Refund while paid and not shipped. Used by Manage Orders and the order page.
 */
export function AdminOrderActions({ order }: { order: Order }) {
  const [shipping, setShipping] = useState(false);
  const [refunding, setRefunding] = useState(false);
  const deliver = useDeliverOrder();
  const refund = useRefundOrder();
  const described = `${order.name} for ${order.email}`;
  if (order.status !== 'paid' && order.status !== 'shipped') return null;
  return (
    <div className="d-flex flex-wrap gap-2">
      {order.status === 'paid' ? (
        <>
          <Button size="sm" variant="outline-primary" onClick={() => setShipping(true)}>
            Ship<span className="visually-hidden"> {described}</span>
          </Button>
          <Button size="sm" variant="outline-danger" onClick={() => setRefunding(true)}>
            Refund<span className="visually-hidden"> {described}</span>
          </Button>
        </>
      ) : (
        <Button
          size="sm"
          variant="outline-success"
          disabled={deliver.isPending}
          onClick={() =>
            deliver.mutate(order._id, {
              onSuccess: () => toast.success(`${order.name} for ${who(order)} is delivered.`),
              onError: (error) => toast.error(errorMessage(error)),
            })
          }
        >
          Mark Delivered<span className="visually-hidden"> {described}</span>
        </Button>
      )}
      {shipping ? <ShipDialog order={order} onClose={() => setShipping(false)} /> : null}
      <ConfirmDialog
        show={refunding}
        title="Refund This Order?"
        body={`Refund ${formatUsd(order.total)} to ${order.email}? The ${order.quantity} PCS of ${order.name} go back into stock.`}
        confirmLabel="Refund"
        busy={refund.isPending}
        onCancel={() => setRefunding(false)}
        onConfirm={() =>
          refund.mutate(order._id, {
            onSuccess: () => {
              setRefunding(false);
              toast.success(`${formatUsd(order.total)} refunded to ${who(order)}.`);
            },
            onError: (error) => {
              setRefunding(false);
              toast.error(errorMessage(error));
            },
          })
        }
      />
    </div>
  );
}

/** Carrier and tracking number first, then 'Confirm Ship' with what will be sent where. */
function ShipDialog({ order, onClose }: { order: Order; onClose(): void }) {
  const ship = useShipOrder();
  const [shipment, setShipment] = useState<ShipOrderBody | null>(null);
  const form = useForm<ShipOrderBody>({
    resolver: zodResolver(shipOrderBodySchema),
    defaultValues: { carrier: '', trackingNumber: '' },
  });
  const confirm = () => {
    if (!shipment) return;
    ship.mutate(
      { orderId: order._id, shipment },
      {
        onSuccess: () => {
          toast.success(`${order.name} for ${who(order)} is shipped.`);
          onClose();
        },
        onError: (error) => {
          setShipment(null);
          applyServerFieldErrors(form, error);
        },
      },
    );
  };
  return (
    <Modal show onHide={onClose} centered aria-labelledby="ship-dialog-title">
      <Modal.Header closeButton>
        <Modal.Title id="ship-dialog-title" as="h2" className="h5">
          {shipment ? 'Confirm Ship' : `Ship ${order.name}`}
        </Modal.Title>
      </Modal.Header>
      {shipment ? (
        <>
          <Modal.Body>
            <p className="mb-2">
              Ship {order.quantity} PCS of {order.name} to {who(order)} with {shipment.carrier}, tracking number{' '}
              <span className="font-monospace">{shipment.trackingNumber}</span>?
            </p>
            <p className="mb-0 small text-body-secondary">
              Ship to: {order.address || 'no address given'}
              {order.phone ? ` · ${order.phone}` : ''}. The customer is mailed the tracking number.
            </p>
            <FormError error={ship.error} />
          </Modal.Body>
          <Modal.Footer>
            <Button variant="outline-secondary" onClick={() => setShipment(null)} disabled={ship.isPending}>
              Back
            </Button>
            <Button className="btn-brand" onClick={confirm} disabled={ship.isPending}>
              {ship.isPending ? 'Shipping…' : 'Confirm Ship'}
            </Button>
          </Modal.Footer>
        </>
      ) : (
        <Form noValidate onSubmit={form.handleSubmit((values) => setShipment(values))}>
          <Modal.Body>
            <FormField form={form} name="carrier" label="Carrier" autoComplete="off" placeholder="e.g. UPS" />
            <FormField
              form={form}
              name="trackingNumber"
              label="Tracking Number"
              autoComplete="off"
              hint="Letters, digits, spaces and dashes, as the carrier prints it."
            />
          </Modal.Body>
          <Modal.Footer>
            <Button variant="outline-secondary" onClick={onClose}>
              Cancel
            </Button>
            <SubmitButton busy={false} busyLabel="Checking" className="btn-brand">
              Continue
            </SubmitButton>
          </Modal.Footer>
        </Form>
      )}
    </Modal>
  );
}
