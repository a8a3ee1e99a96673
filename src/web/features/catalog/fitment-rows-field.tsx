import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { type FieldError, type UseFormReturn, useController, useFieldArray, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { MAX_FITMENT_ROWS } from '../../../shared/schemas/fitment.ts';
import type { PartInput } from '../../../shared/schemas/parts.ts';
import { paths } from '../../lib/paths.ts';
import {
  vehicleMakesQueryOptions,
  vehicleModelsQueryOptions,
  vehicleYearsQueryOptions,
} from '../../lib/vehicle-queries.ts';
import { emptyFitmentRow, type ProductFormValues } from './product-form-schema.ts';

type ProductForm = UseFormReturn<ProductFormValues, unknown, PartInput>;

/**
 * The product form's fitment rows (issue 13): each row is make → model → year range (+ variant), picked from the
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
        <PickerSelect id={`${idPrefix}-make`} label={`Make (row ${rowNumber})`} error={make.fieldState.error}>
          <Form.Select
            ref={make.field.ref}
            name={make.field.name}
            value={makeId}
            onBlur={make.field.onBlur}
            onChange={(event) => {
              make.field.onChange(event.target.value);
              model.field.onChange('');
              clearYears();
            }}
            isInvalid={Boolean(make.fieldState.error)}
          >
            <option value="">Choose a make</option>
            {makes.map((item) => (
              <option key={item.id} value={item.id}>
                {item.name}
              </option>
            ))}
          </Form.Select>
        </PickerSelect>
      </Col>
      <Col xs={12} sm={6} lg={3}>
        <PickerSelect id={`${idPrefix}-model`} label={`Model (row ${rowNumber})`} error={model.fieldState.error}>
          <Form.Select
            ref={model.field.ref}
            name={model.field.name}
            value={modelId}
            onBlur={model.field.onBlur}
            onChange={(event) => {
              model.field.onChange(event.target.value);
              clearYears();
            }}
            disabled={!makeId}
            isInvalid={Boolean(model.fieldState.error)}
          >
            <option value="">{models.isFetching && !models.data ? 'Loading…' : 'Choose a model'}</option>
            {(models.data ?? []).map((item) => (
              <option key={item.id} value={item.id}>
                {item.name}
              </option>
            ))}
          </Form.Select>
        </PickerSelect>
      </Col>
      {(
        [
          ['from', 'Year From', yearFrom, 'From'],
          ['to', 'Year To', yearTo, 'To'],
        ] as const
      ).map(([key, label, year, placeholder]) => (
        <Col xs={6} lg={2} key={key}>
          <PickerSelect id={`${idPrefix}-${key}`} label={`${label} (row ${rowNumber})`} error={year.fieldState.error}>
            <Form.Select
              ref={year.field.ref}
              name={year.field.name}
              value={yearValue(year.field.value)}
              onBlur={year.field.onBlur}
              onChange={(event) => year.field.onChange(toYear(event.target.value))}
              disabled={!modelId}
              isInvalid={Boolean(year.fieldState.error)}
            >
              <option value="">{placeholder}</option>
              {yearList.map((item) => (
                <option key={item} value={item}>
                  {item}
                </option>
              ))}
            </Form.Select>
          </PickerSelect>
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
