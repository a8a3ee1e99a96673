import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useController, useForm } from 'react-hook-form';
import { toast } from 'react-toastify/unstyled';
import type { PartDetails, PartInput } from '../../../shared/schemas/parts.ts';
import { FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { applyServerFieldErrors } from '../../lib/form.ts';
import { categoryOptions } from './category-options.ts';
import { FitmentRowsField } from './fitment-rows-field.tsx';
import { brandsQueryOptions, categoriesQueryOptions } from './parts-api.ts';
import { initialProductValues, type ProductFormValues, productFormSchema } from './product-form-schema.ts';

interface ProductFormProps {
  /** The signed-in admin's email, shown read-only: the server records the adder from the token. */
  adminEmail: string;
  /** Editing: the part's current values, with its fitment. Adding: omitted, the form starts empty. */
  part?: PartDetails | undefined;
  submitLabel: string;
  /** Resolves when saved; `'reset'` clears the form (adding). A rejection is shown as a toast and under the fields. */
  onSubmit(values: PartInput): Promise<'reset' | 'keep'>;
  onCancel?: () => void;
}

/**
 * The one product form, for Add A Product and for Edit on Manage Products. Same zod schemas as the server, with
 * issue 13's brand, part numbers, category, universal flag and fitment rows.
 */
export function ProductForm({ adminEmail, part, submitLabel, onSubmit, onCancel }: ProductFormProps) {
  const form = useForm<ProductFormValues, unknown, PartInput>({
    resolver: zodResolver(productFormSchema),
    defaultValues: initialProductValues(part),
    mode: 'onTouched',
  });
  const { isSubmitting } = form.formState;
  const idPrefix = part ? `edit-${part._id}` : 'add';

  const submit = form.handleSubmit(async (values) => {
    try {
      const outcome = await onSubmit(values);
      if (outcome === 'reset') form.reset(initialProductValues(undefined));
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
      <PartNumbersFields form={form} idPrefix={idPrefix} />
      <FitmentRowsField form={form} idPrefix={idPrefix} />
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

type ProductForm = Parameters<typeof FitmentRowsField>[0]['form'];

/** Brand, manufacturer and OEM part numbers, category and the universal flag. */
function PartNumbersFields({ form, idPrefix }: { form: ProductForm; idPrefix: string }) {
  const categories = useQuery(categoriesQueryOptions);
  const brands = useQuery(brandsQueryOptions);
  // Controlled: a saved category stays shown while the list of categories is still loading.
  const category = useController({ control: form.control, name: 'category' });
  const categoryError = category.fieldState.error?.message;
  return (
    <>
      <Row className="gx-3">
        <Col sm={6}>
          <FormField
            form={form}
            name="brand"
            label="Brand"
            id={`${idPrefix}-brand`}
            maxLength={40}
            list={`${idPrefix}-brands`}
            hint="Pick one or type a new brand"
            autoComplete="off"
          />
          <datalist id={`${idPrefix}-brands`}>
            {(brands.data ?? []).map((brand) => (
              <option key={brand.slug} value={brand.name} />
            ))}
          </datalist>
        </Col>
        <Col sm={6}>
          <FormField
            form={form}
            name="mpn"
            label="Manufacturer Part Number (MPN)"
            id={`${idPrefix}-mpn`}
            maxLength={40}
            autoComplete="off"
          />
        </Col>
      </Row>
      <FormField
        form={form}
        name="oemNumbers"
        label="OEM Numbers"
        id={`${idPrefix}-oem`}
        as="textarea"
        rows={2}
        hint="Cross-reference numbers, one per line or separated by commas"
      />
      <Form.Group className="mb-3" controlId={`${idPrefix}-category`}>
        <Form.Label>Category</Form.Label>
        <Form.Select
          ref={category.field.ref}
          name={category.field.name}
          value={category.field.value}
          onChange={(event) => category.field.onChange(event.target.value)}
          onBlur={category.field.onBlur}
          isInvalid={Boolean(categoryError)}
          aria-invalid={categoryError ? true : undefined}
          aria-describedby={categoryError ? `${idPrefix}-category-error` : undefined}
        >
          <option value="">No category</option>
          {/* The saved one, until the list that names it has loaded. */}
          {category.field.value && !categories.data ? (
            <option value={category.field.value}>{category.field.value}</option>
          ) : null}
          {categoryOptions(categories.data ?? []).map((option) => (
            <option key={option.slug} value={option.slug}>
              {option.label}
            </option>
          ))}
        </Form.Select>
        {categoryError ? (
          <Form.Control.Feedback type="invalid" id={`${idPrefix}-category-error`} role="alert">
            {categoryError}
          </Form.Control.Feedback>
        ) : null}
      </Form.Group>
      <Form.Check
        className="mb-3"
        type="checkbox"
        id={`${idPrefix}-universal`}
        label="Universal fit (fits every vehicle)"
        {...form.register('universal')}
      />
    </>
  );
}
