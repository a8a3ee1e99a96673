import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useController, useForm } from 'react-hook-form';
import { toast } from 'react-toastify/unstyled';
import { NO_PHOTO_IMAGE } from '../../../shared/schemas/media.ts';
import type { PartDetails, PartInput } from '../../../shared/schemas/parts.ts';
import { FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { applyServerFieldErrors } from '../../lib/form.ts';
import { categoryOptions } from './category-options.ts';
import { FitmentRowsField } from './fitment-rows-field.tsx';
import { PartPhotosField, type PendingPhotos, PendingPhotosField } from './part-photos-field.tsx';
import { brandsQueryOptions, categoriesQueryOptions } from './parts-api.ts';
import { initialProductValues, type ProductFormValues, productFormSchema } from './product-form-schema.ts';

/**
 * The product's plain fields by name: label and input settings. Each is drawn by one `ProductField`, so a field's
 * id, registration and messages are written once; the layout below only places them.
 */
const plainFields = {
  name: { label: 'Name', maxLength: 20, hint: 'Up to 20 characters' },
  desription: { label: 'Description', as: 'textarea', rows: 3, maxLength: 1000 },
  img: { label: 'Photo URL', type: 'text', inputMode: 'url', placeholder: 'https://… or /images/parts/…' },
  brand: { label: 'Brand', maxLength: 40, hint: 'Pick one or type a new brand', autoComplete: 'off' },
  mpn: { label: 'Manufacturer Part Number (MPN)', maxLength: 40, autoComplete: 'off' },
  oemNumbers: {
    label: 'OEM Numbers',
    as: 'textarea',
    rows: 2,
    hint: 'Cross-reference numbers, one per line or separated by commas',
  },
} as const;

type ProductForm = Parameters<typeof FitmentRowsField>[0]['form'];

/** One of `plainFields`, its id prefixed so an Edit form beside the Add form never shares ids. */
function ProductField({
  form,
  idPrefix,
  name,
  list,
}: {
  form: ProductForm;
  idPrefix: string;
  name: keyof typeof plainFields;
  list?: string;
}) {
  return <FormField form={form} name={name} id={`${idPrefix}-${name}`} list={list} {...plainFields[name]} />;
}

/** Price, stock and minimum order side by side: one number input each, with its own step and lowest value. */
const numberFields = [
  { name: 'price', label: 'Price (USD per unit)', inputMode: 'decimal', step: '0.01', min: '0.01' },
  { name: 'availablequantity', label: 'Available Quantity (PCS)', inputMode: 'numeric', step: '1', min: '0' },
  { name: 'minimunorder', label: 'Minimum Order (PCS)', inputMode: 'numeric', step: '1', min: '1' },
] as const;

interface ProductFormProps {
  /** The signed-in admin's email, shown read-only: the server records the adder from the token. */
  adminEmail: string;
  /** Editing: the part's current values, with its fitment. Adding: omitted, the form starts empty. */
  part?: PartDetails | undefined;
  submitLabel: string;
  /** Resolves when saved; `'reset'` clears the form (adding). A rejection is shown as a toast and under the fields. */
  onSubmit(values: PartInput): Promise<'reset' | 'keep'>;
  onCancel?: () => void;
  /** Adding: photos chosen before the part exists; the page uploads them once it is saved. */
  pendingPhotos?: PendingPhotos;
}

/**
 * The one product form, for Add A Product and for Edit on Manage Products. Same zod schemas as the server, with
 * the brand, part numbers, category, universal flag and fitment rows.
 */
export function ProductForm({ adminEmail, part, submitLabel, onSubmit, onCancel, pendingPhotos }: ProductFormProps) {
  const form = useForm<ProductFormValues, unknown, PartInput>({
    resolver: zodResolver(productFormSchema),
    defaultValues: initialProductValues(part),
    mode: 'onTouched',
  });
  const { isSubmitting } = form.formState;
  const idPrefix = part ? `edit-${part._id}` : 'add';
  // A part added with photos and no link starts with the no-photo picture; its first upload replaces it.
  const hasPendingPhotos = (pendingPhotos?.files.length ?? 0) > 0;
  useEffect(() => {
    if (hasPendingPhotos && !form.getValues('img')) form.setValue('img', NO_PHOTO_IMAGE, { shouldValidate: true });
  }, [hasPendingPhotos, form]);

  const submit = form.handleSubmit(async (values) => {
    try {
      const outcome = await onSubmit(values);
      if (outcome === 'reset') form.reset(initialProductValues(undefined));
    } catch (error) {
      // A message about a field shows under it; only the others need the toast.
      const rest = applyServerFieldErrors(form, error);
      if (rest) toast.error(rest);
    }
  });

  return (
    <Form noValidate onSubmit={submit} aria-label={submitLabel}>
      <Form.Group className="mb-3" controlId={`${idPrefix}-email`}>
        <Form.Label>Email</Form.Label>
        <Form.Control type="email" value={adminEmail} readOnly aria-readonly="true" className="bg-body-tertiary" />
      </Form.Group>
      <ProductField form={form} idPrefix={idPrefix} name="name" />
      <ProductField form={form} idPrefix={idPrefix} name="desription" />
      <Row className="gx-3">
        {numberFields.map(({ name, ...input }) => (
          <Col sm={4} key={name}>
            <FormField form={form} name={name} id={`${idPrefix}-${name}`} type="number" asNumber {...input} />
          </Col>
        ))}
      </Row>
      <ProductField form={form} idPrefix={idPrefix} name="img" />
      {/* Uploaded photos beside the link; the main photo is the part's image while it has one. */}
      {part ? (
        <PartPhotosField
          partId={part._id}
          name={part.name}
          initial={part.photos}
          idPrefix={idPrefix}
          onImageChange={(img) => form.setValue('img', img, { shouldValidate: true })}
        />
      ) : pendingPhotos ? (
        <PendingPhotosField pending={pendingPhotos} idPrefix={idPrefix} />
      ) : null}
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
          <ProductField form={form} idPrefix={idPrefix} name="brand" list={`${idPrefix}-brands`} />
          <datalist id={`${idPrefix}-brands`}>
            {(brands.data ?? []).map((brand) => (
              <option key={brand.slug} value={brand.name} />
            ))}
          </datalist>
        </Col>
        <Col sm={6}>
          <ProductField form={form} idPrefix={idPrefix} name="mpn" />
        </Col>
      </Row>
      <ProductField form={form} idPrefix={idPrefix} name="oemNumbers" />
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
