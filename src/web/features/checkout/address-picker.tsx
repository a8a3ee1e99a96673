import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { type NewAddressBody, newAddressBodySchema, type ShipTo } from '../../../shared/schemas/addresses.ts';
import { FormField } from '../../components/form-field.tsx';
import { LoadError } from '../../components/query-state.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { addressesQueryOptions } from './checkout-api.ts';

const NEW = 'new';

/**
 * Where to ship: one of the saved addresses (the most recently used is chosen first) or a new address and phone,
 * both required. A new one is saved to the address book by the server when it is used.
 */
export function AddressPicker({
  submitLabel,
  busy,
  busyLabel,
  disabled = false,
  onSubmit,
}: {
  submitLabel: string;
  busy: boolean;
  busyLabel: string;
  disabled?: boolean;
  onSubmit(shipTo: ShipTo): void;
}) {
  const saved = useQuery(addressesQueryOptions);
  const [choice, setChoice] = useState<string | null>(null);
  const groupName = useId();
  const form = useForm<NewAddressBody>({
    resolver: zodResolver(newAddressBodySchema),
    defaultValues: { address: '', phone: '' },
  });
  const entries = saved.data ?? [];
  const chosen = choice ?? entries[0]?._id ?? NEW;

  const submit = (event: React.FormEvent) => {
    if (chosen !== NEW) {
      event.preventDefault();
      if (!busy && !disabled) onSubmit({ addressId: chosen });
      return;
    }
    void form.handleSubmit((values) => {
      if (!busy && !disabled) onSubmit(values);
    })(event);
  };

  if (saved.isPending) return <p className="text-body-secondary">Loading your saved addresses…</p>;
  return (
    <Form noValidate onSubmit={submit}>
      {saved.isError ? (
        <LoadError error={saved.error} onRetry={() => void saved.refetch()} what="your saved addresses" />
      ) : null}
      {entries.length > 0 ? (
        <fieldset className="mb-3">
          <legend className="h6">Ship To</legend>
          {entries.map((entry) => (
            <Form.Check
              key={entry._id}
              type="radio"
              id={`${groupName}-${entry._id}`}
              name={groupName}
              checked={chosen === entry._id}
              onChange={() => setChoice(entry._id)}
              label={`${entry.address} · ${entry.phone}`}
            />
          ))}
          <Form.Check
            type="radio"
            id={`${groupName}-new`}
            name={groupName}
            checked={chosen === NEW}
            onChange={() => setChoice(NEW)}
            label="A New Address"
          />
        </fieldset>
      ) : null}
      {chosen === NEW ? (
        <>
          <FormField form={form} name="address" label="Shipping Address" autoComplete="street-address" />
          <FormField form={form} name="phone" label="Phone Number" type="tel" autoComplete="tel" inputMode="tel" />
        </>
      ) : null}
      <SubmitButton busy={busy} busyLabel={busyLabel} disabled={disabled} className="btn-brand">
        {submitLabel}
      </SubmitButton>
    </Form>
  );
}
