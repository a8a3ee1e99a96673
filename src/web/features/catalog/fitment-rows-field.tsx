import { useQuery } from '@tanstack/react-query';
import type { ReactNode, Ref } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { type FieldError, type UseFormReturn, useController, useFieldArray, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { MAX_FITMENT_ROWS } from '../../../shared/schemas/fitment.ts';
import type { PartInput } from '../../../shared/schemas/parts.ts';
import {
  vehicleMakesQueryOptions,
  vehicleModelsQueryOptions,
  vehicleYearsQueryOptions,
} from '../../lib/vehicle-queries.ts';
import { emptyFitmentRow, type ProductFormValues } from './product-form-schema.ts';

type ProductForm = UseFormReturn<ProductFormValues, unknown, PartInput>;

/**
 * The product form's fitment rows: each row is make → model → year range (+ variant), picked from the
 * same vehicle lists as the garage's selector. Saving replaces every row of the part.
 */
export function FitmentRowsField({ form, idPrefix }: { form: ProductForm; idPrefix: string }) {
  const rows = useFieldArray({ control: form.control, name: 'fitment' });
  const universal = useWatch({ control: form.control, name: 'universal' });
  const makes = useQuery(vehicleMakesQueryOptions({}));
  const arrayError = form.formState.errors.fitment?.root?.message ?? form.formState.errors.fitment?.message;

  return (
    <fieldset className="mb-3 border rounded p-3">
      <legend className="h6 float-none w-auto px-1 mb-1">Vehicle Fitment</legend>
      <p className="small text-body-secondary">
        {universal
          ? 'A universal part fits every vehicle: rows below are kept but not needed.'
          : 'The vehicles this part fits: a model and its years. Saving replaces every row.'}
      </p>
      {rows.fields.length === 0 ? <p className="small mb-2">No fitment rows yet.</p> : null}
      <ol className="list-unstyled mb-2 d-flex flex-column gap-3">
        {rows.fields.map((field, index) => (
          <li key={field.id} aria-label={`Fitment row ${index + 1}`} className="border-bottom pb-3">
            <FitmentRow
              form={form}
              index={index}
              idPrefix={`${idPrefix}-fitment-${index}`}
              makes={makes.data ?? []}
              onRemove={() => rows.remove(index)}
            />
          </li>
        ))}
      </ol>
      {arrayError ? (
        <p className="text-danger small" role="alert">
          {arrayError}
        </p>
      ) : null}
      {makes.isError ? (
        <p className="text-danger small" role="alert">
          Could not load the makes.{' '}
          <Button variant="link" size="sm" className="p-0 align-baseline" onClick={() => void makes.refetch()}>
            Try again
          </Button>
        </p>
      ) : null}
      <Button
        variant="outline-dark"
        size="sm"
        disabled={rows.fields.length >= MAX_FITMENT_ROWS}
        onClick={() => rows.append({ ...emptyFitmentRow })}
      >
        Add Fitment Row
      </Button>
    </fieldset>
  );
}

function FitmentRow({
  form,
  index,
  idPrefix,
  makes,
  onRemove,
}: {
  form: ProductForm;
  index: number;
  idPrefix: string;
  makes: { id: string; name: string }[];
  onRemove(): void;
}) {
  // Controlled selects: a saved row's model and years stay shown while their option lists are still loading.
  const make = useController({ control: form.control, name: `fitment.${index}.makeId` });
  const model = useController({ control: form.control, name: `fitment.${index}.modelId` });
  const yearFrom = useController({ control: form.control, name: `fitment.${index}.yearFrom` });
  const yearTo = useController({ control: form.control, name: `fitment.${index}.yearTo` });
  const makeId = make.field.value;
  const modelId = model.field.value;
  const models = useQuery({ ...vehicleModelsQueryOptions({ makeId }), enabled: Boolean(makeId) });
  const years = useQuery({ ...vehicleYearsQueryOptions({ modelId }), enabled: Boolean(modelId) });
  // Oldest first reads naturally in a range picker.
  const yearList = [...(years.data ?? [])].sort((a, b) => a - b);
  const rowNumber = index + 1;
  const clearYears = () => {
    yearFrom.field.onChange(emptyFitmentRow.yearFrom);
    yearTo.field.onChange(emptyFitmentRow.yearTo);
  };
  const yearValue = (value: number) => (Number.isFinite(value) ? String(value) : '');
  const toYear = (text: string) => (text === '' ? emptyFitmentRow.yearFrom : Number(text));

  return (
    <Row className="g-2 align-items-start">
      <Col xs={12} sm={6} lg={3}>
        <RowSelect
          id={`${idPrefix}-make`}
          label={`Make (row ${rowNumber})`}
          control={make}
          placeholder="Choose a make"
          options={makes.map((item) => ({ value: item.id, label: item.name }))}
          onPick={(value) => {
            make.field.onChange(value);
            model.field.onChange('');
            clearYears();
          }}
        />
      </Col>
      <Col xs={12} sm={6} lg={3}>
        <RowSelect
          id={`${idPrefix}-model`}
          label={`Model (row ${rowNumber})`}
          control={model}
          placeholder={models.isFetching && !models.data ? 'Loading…' : 'Choose a model'}
          disabled={!makeId}
          options={(models.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
          onPick={(value) => {
            model.field.onChange(value);
            clearYears();
          }}
        />
      </Col>
      {(
        [
          ['from', 'Year From', yearFrom, 'From'],
          ['to', 'Year To', yearTo, 'To'],
        ] as const
      ).map(([key, label, year, placeholder]) => (
        <Col xs={6} lg={2} key={key}>
          <RowSelect
            id={`${idPrefix}-${key}`}
            label={`${label} (row ${rowNumber})`}
            control={year}
            value={yearValue(year.field.value)}
            placeholder={placeholder}
            disabled={!modelId}
            options={yearList.map((item) => ({ value: String(item), label: String(item) }))}
            onPick={(value) => year.field.onChange(toYear(value))}
          />
        </Col>
      ))}
      <Col xs={12} sm={8} lg={2}>
        <PickerSelect
          id={`${idPrefix}-variant`}
          label={`Variant (row ${rowNumber})`}
          error={form.formState.errors.fitment?.[index]?.variant}
        >
          <Form.Control
            {...form.register(`fitment.${index}.variant`)}
            maxLength={40}
            placeholder="All variants"
            isInvalid={Boolean(form.formState.errors.fitment?.[index]?.variant)}
          />
        </PickerSelect>
      </Col>
      <Col xs={12} sm={4} lg={12} className="d-flex align-items-end">
        <Button variant="outline-danger" size="sm" onClick={onRemove}>
          Remove row {rowNumber}
        </Button>
      </Col>
      {modelId && years.isSuccess && yearList.length === 0 ? (
        <Col xs={12}>
          <p className="small text-body-secondary mb-0">
            This model has no years yet: add them on <Link to={paths.dashboard.vehicles}>Vehicles</Link>.
          </p>
        </Col>
      ) : null}
    </Row>
  );
}

function PickerSelect({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error: FieldError | undefined;
  children: ReactNode;
}) {
  return (
    <Form.Group controlId={id}>
      <Form.Label className="small mb-1">{label}</Form.Label>
      {children}
      {error?.message ? (
        <Form.Control.Feedback type="invalid" role="alert">
          {error.message}
        </Form.Control.Feedback>
      ) : null}
    </Form.Group>
  );
}

/** One of a row's pickers: a controlled select, so a saved value shows while its options are still loading. */
function RowSelect({
  id,
  label,
  control,
  value,
  placeholder,
  options,
  disabled,
  onPick,
}: {
  id: string;
  label: string;
  control: {
    field: { ref: Ref<HTMLSelectElement>; name: string; value: unknown; onBlur(): void };
    fieldState: { error?: FieldError | undefined };
  };
  /** The select's value as text, when the field holds something else (a year). */
  value?: string;
  placeholder: string;
  options: { value: string; label: string }[];
  disabled?: boolean;
  onPick(value: string): void;
}) {
  const error = control.fieldState.error;
  return (
    <PickerSelect id={id} label={label} error={error}>
      <Form.Select
        ref={control.field.ref}
        name={control.field.name}
        value={value ?? String(control.field.value ?? '')}
        onBlur={control.field.onBlur}
        onChange={(event) => onPick(event.target.value)}
        disabled={disabled}
        isInvalid={Boolean(error)}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Form.Select>
    </PickerSelect>
  );
}
