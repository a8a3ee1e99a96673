import Alert from 'react-bootstrap/Alert';
import { errorMessage } from '../../lib/api-client.ts';
import { AddressPicker } from './address-picker.tsx';
import { useSetOrdersAddress } from './use-checkout-mutations.ts';

/**
 * The payment page's first step for orders placed without a shipping address: nothing is paid that
 * cannot be shipped, so the address comes before the card.
 */
export function ShippingAddressStep({ orderIds }: { orderIds: readonly string[] }) {
  const setAddress = useSetOrdersAddress();
  return (
    <section aria-labelledby="shipping-step" className="mb-3">
      <h2 id="shipping-step" className="h5">
        Where Should We Ship {orderIds.length > 1 ? 'These Orders' : 'This Order'}?
      </h2>
      <p className="text-body-secondary">Add a shipping address before paying.</p>
      {setAddress.isError ? (
        <Alert variant="danger" role="alert">
          {errorMessage(setAddress.error)}
        </Alert>
      ) : null}
      <AddressPicker
        submitLabel="Ship Here"
        busy={setAddress.isPending}
        busyLabel="Saving the address"
        onSubmit={(shipTo) => {
          if (!setAddress.isPending) setAddress.mutate({ orderIds, shipTo });
        }}
      />
    </section>
  );
}
