import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { type VehicleType, vehicleTypeLabels, vehicleTypes } from '../../../shared/enums.ts';
import type { Vehicle } from '../../../shared/schemas/fitment.ts';
import { SubmitButton } from '../../components/submit-button.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useHydrated } from '../../lib/hydration.ts';
import {
  vehicleListQueryOptions,
  vehicleMakesQueryOptions,
  vehicleModelsQueryOptions,
  vehicleTypesQueryOptions,
  vehicleYearsQueryOptions,
} from '../../lib/vehicle-queries.ts';
import './fitment.css';

interface VehicleSelectorProps {
  /** Unique on the page: the selects' ids start with it. */
  idPrefix: string;
  /** The button's text, e.g. 'Shop for this vehicle' or 'Add to My Garage'. */
  submitLabel: string;
  /** Called with the chosen vehicle; the selector shows a spinner until it settles and a message if it fails. */
  onSelect(vehicle: Vehicle): Promise<void> | void;
  /** The form's accessible name. */
  label?: string;
  /** Five columns side by side from this width up (they stack below it). */
  wideFrom?: 'md' | 'lg' | 'xl';
}

interface Choice {
  type: VehicleType | '';
  year: string;
  makeId: string;
  modelId: string;
  vehicleId: string;
}

const EMPTY: Choice = { type: '', year: '', makeId: '', modelId: '', vehicleId: '' };

/** What the Variant list calls a vehicle without one. */
export const BASE_VARIANT = 'Standard';

/**
 * The vehicle selector: Type → Year → Make → Model → Variant, each a labelled native select that lists
 * only what exists for the choices before it (the server's selector calls), so it works with a keyboard and a
 * screen reader as any form does. A later step is disabled until the steps before it are chosen; changing a step
 * clears the ones after it. A model year with no variants to tell apart is picked without asking.
 */
export function VehicleSelector({
  idPrefix,
  submitLabel,
  onSelect,
  label = 'Choose your vehicle',
  wideFrom = 'lg',
}: VehicleSelectorProps) {
  const [choice, setChoice] = useState<Choice>(EMPTY);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const year = choice.year ? Number(choice.year) : undefined;
  const type = choice.type || undefined;

  const types = useQuery(vehicleTypesQueryOptions);
  // The server renders the types, so the first select looks usable before React owns the page; a choice
  // made then would be reset by hydration (the select is controlled), so it waits for it.
  const hydrated = useHydrated();
  const years = useQuery({ ...vehicleYearsQueryOptions({ type }), enabled: Boolean(type) });
  const makes = useQuery({ ...vehicleMakesQueryOptions({ type, year }), enabled: Boolean(type && year) });
  const models = useQuery({
    ...vehicleModelsQueryOptions({ type, year, makeId: choice.makeId || undefined }),
    enabled: Boolean(type && year && choice.makeId),
  });
  const variants = useQuery({
    ...vehicleListQueryOptions({ modelId: choice.modelId || undefined, year }),
    enabled: Boolean(choice.modelId && year),
  });
  const variantList = variants.data?.items ?? [];

  // One vehicle for that model year: nothing to choose, so it is chosen.
  const onlyVehicle = variantList.length === 1 ? variantList[0] : undefined;
  const vehicleId = choice.vehicleId || onlyVehicle?.id || '';
  const chosen = variantList.find((vehicle) => vehicle.id === vehicleId);
  // Until the variants of the chosen model year are in, there is nothing to submit yet: wait, do not complain.
  const variantsLoading = Boolean(choice.modelId) && variants.isFetching && !chosen;

  const set = (changes: Partial<Choice>) => {
    setFailure(null);
    setChoice((c) => {
      const next = { ...c, ...changes };
      // A step changed: the steps after it no longer apply.
      if ('type' in changes) Object.assign(next, { year: '', makeId: '', modelId: '', vehicleId: '' });
      else if ('year' in changes) Object.assign(next, { makeId: '', modelId: '', vehicleId: '' });
      else if ('makeId' in changes) Object.assign(next, { modelId: '', vehicleId: '' });
      else if ('modelId' in changes) Object.assign(next, { vehicleId: '' });
      return next;
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) {
      setFailure(new Error('Choose the type, year, make and model first.'));
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      await onSelect(chosen);
      setChoice(EMPTY);
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  const failed = [types, years, makes, models, variants].find((query) => query.isError);
  const col = { xs: 12, sm: 6, md: wideFrom === 'md' || undefined, lg: wideFrom === 'lg' || undefined, xl: true };
  const buttonCol = {
    xs: 12,
    md: wideFrom === 'md' ? 'auto' : 12,
    lg: wideFrom === 'xl' ? 12 : 'auto',
    xl: 'auto',
  } as const;

  return (
    <Form onSubmit={submit} aria-label={label} className="vehicle-selector">
      <Row className="g-2 align-items-end">
        <Col {...col}>
          <StepSelect
            id={`${idPrefix}-type`}
            label="Type"
            placeholder="Choose…"
            value={choice.type}
            disabled={!hydrated}
            loading={types.isPending}
            options={(types.data ?? []).map((value) => ({ value, label: vehicleTypeLabels[value] }))}
            onChange={(value) => set({ type: vehicleTypes.find((t) => t === value) ?? '' })}
          />
        </Col>
        <Col {...col}>
          <StepSelect
            id={`${idPrefix}-year`}
            label="Year"
            placeholder="Choose…"
            value={choice.year}
            disabled={!type}
            loading={years.isFetching}
            options={(years.data ?? []).map((value) => ({ value: String(value), label: String(value) }))}
            onChange={(value) => set({ year: value })}
          />
        </Col>
        <Col {...col}>
          <StepSelect
            id={`${idPrefix}-make`}
            label="Make"
            placeholder="Choose…"
            value={choice.makeId}
            disabled={!year}
            loading={makes.isFetching}
            options={(makes.data ?? []).map((make) => ({ value: make.id, label: make.name }))}
            onChange={(value) => set({ makeId: value })}
          />
        </Col>
        <Col {...col}>
          <StepSelect
            id={`${idPrefix}-model`}
            label="Model"
            placeholder="Choose…"
            value={choice.modelId}
            disabled={!choice.makeId}
            loading={models.isFetching}
            options={(models.data ?? []).map((model) => ({ value: model.id, label: model.name }))}
            onChange={(value) => set({ modelId: value })}
          />
        </Col>
        <Col {...col}>
          <StepSelect
            id={`${idPrefix}-variant`}
            label="Variant"
            placeholder="Choose…"
            value={vehicleId}
            disabled={!choice.modelId || variantList.length <= 1}
            loading={variants.isFetching}
            options={variantList.map((vehicle) => ({ value: vehicle.id, label: vehicle.variant ?? BASE_VARIANT }))}
            onChange={(value) => set({ vehicleId: value })}
          />
        </Col>
        <Col {...buttonCol}>
          <SubmitButton
            busy={busy || variantsLoading}
            busyLabel={busy ? 'Saving your vehicle' : 'Loading the variants'}
            className="btn-brand w-100 text-nowrap"
          >
            {submitLabel}
          </SubmitButton>
        </Col>
      </Row>
      <div aria-live="polite" className="small mt-2">
        {failed ? (
          <p className="text-danger mb-0" role="alert">
            Could not load the vehicles. {errorMessage(failed.error)}{' '}
            <Button variant="link" size="sm" className="p-0 align-baseline" onClick={() => void failed.refetch()}>
              Try again
            </Button>
          </p>
        ) : failure ? (
          <p className="text-danger mb-0" role="alert">
            {errorMessage(failure)}
          </p>
        ) : chosen ? (
          <p className="mb-0 text-body-secondary">Selected: {chosen.label}</p>
        ) : null}
      </div>
    </Form>
  );
}

interface StepSelectProps {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  options: { value: string; label: string }[];
  onChange(value: string): void;
  disabled?: boolean;
  loading?: boolean;
}

function StepSelect({ id, label, placeholder, value, options, onChange, disabled, loading }: StepSelectProps) {
  return (
    <Form.Group controlId={id}>
      <Form.Label className="small fw-semibold mb-1">{label}</Form.Label>
      <Form.Select
        value={value}
        disabled={disabled}
        aria-busy={loading || undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">{loading && !disabled ? 'Loading…' : placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Form.Select>
    </Form.Group>
  );
}
