import { zodResolver } from '@hookform/resolvers/zod';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify/unstyled';
import type { z } from 'zod';
import { type Part, type PartInput, partInputSchema } from '../../../shared/schemas/parts.ts';
import { FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { applyServerFieldErrors, blankNumber } from '../../lib/form.ts';

type PartFormValues = z.input<typeof partInputSchema>;

interface ProductFormProps {
  /** The signed-in admin's email, shown read-only: the server records the adder from the token. */
  adminEmail: string;
  /** Editing: the part's current values. Adding: omitted, the form starts empty. */
  part?: Part | undefined;
  submitLabel: string;
  /** Resolves when saved; `'reset'` clears the form (adding). A rejection is shown as a toast and under the fields. */
  onSubmit(values: PartInput): Promise<'reset' | 'keep'>;
  onCancel?: () => void;
}

function initialValues(part: Part | undefined): PartFormValues {
  return {
    name: part?.name ?? '',
    desription: part?.desription ?? '',
    // Empty number inputs start (and reset to) blank, not 0: react-hook-form reads '' as NaN, which the schema reports.
    price: part?.price ?? blankNumber,
    availablequantity: part?.availablequantity ?? blankNumber,
    minimunorder: part?.minimunorder ?? blankNumber,
    img: part?.img ?? '',
  };
}

/** The one product form, for Add A Product and for Edit on Manage Products. Same zod schema as the server. */
export function ProductForm({ adminEmail, part, submitLabel, onSubmit, onCancel }: ProductFormProps) {
  const form = useForm<PartFormValues, unknown, PartInput>({
    resolver: zodResolver(partInputSchema),
    defaultValues: initialValues(part),
    mode: 'onTouched',
  });
  const { isSubmitting } = form.formState;
  const idPrefix = part ? `edit-${part._id}` : 'add';

  const submit = form.handleSubmit(async (values) => {
    try {
      const outcome = await onSubmit(values);
      if (outcome === 'reset') form.reset(initialValues(undefined));
    } catch (error) {
      applyServerFieldErrors(form, error);
      toast.error(errorMessage(error));
    }
  });

  return (
    <Form noValidate onSubmit={submit} aria-label={submitLabel}>
      <Form.Group className="mb-3" controlId={`${idPrefix}-email`}>
        <Form.Label>Email</Form.Label>
        <Form.Control type="email" value={adminEmail} readOnly aria-readonly="true" className="bg-body-tertiary" />
      </Form.Group>
      <FormField
        form={form}
        name="name"
        label="Name"
        id={`${idPrefix}-name`}
        maxLength={20}
        hint="Up to 20 characters"
      />
      <FormField
        form={form}
        name="desription"
        label="Description"
        id={`${idPrefix}-desription`}
        as="textarea"
        rows={3}
        maxLength={1000}
      />
      <Row className="gx-3">
        <Col sm={4}>
          <FormField
            form={form}
            name="price"
            label="Price (USD per unit)"
            id={`${idPrefix}-price`}
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0.01"
            asNumber
          />
        </Col>
        <Col sm={4}>
          <FormField
            form={form}
            name="availablequantity"
            label="Available Quantity (PCS)"
            id={`${idPrefix}-availablequantity`}
            type="number"
            inputMode="numeric"
            step="1"
            min="0"
            asNumber
          />
        </Col>
        <Col sm={4}>
          <FormField
            form={form}
            name="minimunorder"
            label="Minimum Order (PCS)"
            id={`${idPrefix}-minimunorder`}
            type="number"
            inputMode="numeric"
            step="1"
            min="1"
            asNumber
          />
        </Col>
      </Row>
      <FormField
        form={form}
        name="img"
        label="Photo URL"
        id={`${idPrefix}-img`}
        type="text"
        inputMode="url"
        placeholder="https://… or /images/parts/…"
      />
      <div className="d-flex flex-wrap gap-2">
        <SubmitButton busy={isSubmitting} busyLabel="Saving…" className="btn-brand">
          {submitLabel}
        </SubmitButton>
        {onCancel ? (
          <Button variant="outline-secondary" onClick={onCancel} disabled={isSubmitting}>
            Cancel
          </Button>
        ) : null}
      </div>
    </Form>
  );
}
