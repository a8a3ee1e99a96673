import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { type FormEventHandler, type ReactNode, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import Row from 'react-bootstrap/Row';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify/unstyled';
import type { z } from 'zod';
import {
  type VehicleInput,
  type VehicleMakeInput,
  type VehicleModelInput,
  vehicleInputSchema,
  vehicleMakeInputSchema,
  vehicleModelInputSchema,
  vehicleTypeLabels,
  vehicleTypes,
} from '../../../shared/schemas/fitment.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormField } from '../../components/form-field.tsx';
import { EmptyState, QueryStatus } from '../../components/query-state.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { blankNumber } from '../../lib/form.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import {
  vehicleListQueryOptions,
  vehicleMakesQueryOptions,
  vehicleModelsQueryOptions,
} from '../../lib/vehicle-queries.ts';
import { submitOrShow } from './submit-or-show.ts';
import {
  useCreateMake,
  useCreateModel,
  useCreateVehicles,
  useDeleteMake,
  useDeleteModel,
  useDeleteVehicle,
} from './use-vehicle-mutations.ts';
import { BASE_VARIANT } from './vehicle-selector.tsx';

interface PendingDelete {
  title: string;
  body: string;
  run(): Promise<unknown>;
  done: string;
}

/**
 * /dashboard/vehicles (admin): makes, their models, and each model's years and variants: the data the
 * garage's selector and the product form's fitment pickers offer.
 */
export function Component() {
  usePageTitle('Vehicles');
  const [makeId, setMakeId] = useState('');
  const [modelId, setModelId] = useState('');
  const [pending, setPending] = useState<PendingDelete | null>(null);
  const [deleting, setDeleting] = useState(false);
  const makes = useQuery(vehicleMakesQueryOptions({}));
  const models = useQuery({ ...vehicleModelsQueryOptions({ makeId }), enabled: Boolean(makeId) });
  const make = makes.data?.find((item) => item.id === makeId);
  const model = models.data?.find((item) => item.id === modelId);
  const deleteMake = useDeleteMake();
  const deleteModel = useDeleteModel();
  const deleteVehicle = useDeleteVehicle();

  const confirmDelete = async () => {
    if (!pending) return;
    setDeleting(true);
    try {
      await pending.run();
      toast.success(pending.done);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setDeleting(false);
      setPending(null);
    }
  };

  return (
    <section aria-labelledby="vehicles-title">
      <h1 id="vehicles-title" className="h3 mb-3">
        Vehicles
      </h1>
      <p className="text-body-secondary">
        Makes, models and their years: what customers pick in the vehicle selector and what a product's fitment rows can
        name.
      </p>

      <Card className="p-3 p-md-4 mb-4" as="section" aria-labelledby="makes-title">
        <h2 id="makes-title" className="h5">
          Makes
        </h2>
        <AddMakeForm onAdded={(id) => setMakeId(id)} />
        <QueryStatus query={makes} what="the makes" loadingLabel="Loading the makes…" />
        {makes.data?.length === 0 ? <EmptyState>No makes yet. Add the first one above.</EmptyState> : null}
        {makes.data && makes.data.length > 0 ? (
          <PickOrDelete
            id="vehicles-make"
            label="Make"
            placeholder="Choose a make"
            value={makeId}
            options={makes.data.map((item) => ({ value: item.id, label: item.name }))}
            onChange={(id) => {
              setMakeId(id);
              setModelId('');
            }}
            deleteLabel="Delete Make"
            onDelete={
              make
                ? () =>
                    setPending({
                      title: `Delete ${make.name}?`,
                      body: 'Only a make without models can be deleted.',
                      run: () => deleteMake.mutateAsync(make.id).then(() => setMakeId('')),
                      done: `${make.name} was deleted`,
                    })
                : null
            }
          />
        ) : null}
      </Card>

      {make ? (
        <Card className="p-3 p-md-4 mb-4" as="section" aria-labelledby="models-title">
          <h2 id="models-title" className="h5">
            {make.name} Models
          </h2>
          <AddModelForm key={make.id} makeId={make.id} onAdded={(id) => setModelId(id)} />
          <QueryStatus query={models} what="the models" loadingLabel="Loading the models…" />
          {models.data?.length === 0 ? <p className="text-body-secondary mb-0">No models of {make.name} yet.</p> : null}
          {models.data && models.data.length > 0 ? (
            <PickOrDelete
              id="vehicles-model"
              label="Model"
              placeholder="Choose a model"
              value={modelId}
              options={models.data.map((item) => ({
                value: item.id,
                label: `${item.name} (${vehicleTypeLabels[item.type]})`,
              }))}
              onChange={setModelId}
              deleteLabel="Delete Model"
              onDelete={
                model
                  ? () =>
                      setPending({
                        title: `Delete ${make.name} ${model.name}?`,
                        body: 'Only a model without years and without fitment can be deleted.',
                        run: () => deleteModel.mutateAsync(model.id).then(() => setModelId('')),
                        done: `${make.name} ${model.name} was deleted`,
                      })
                  : null
              }
            />
          ) : null}
        </Card>
      ) : null}

      {make && model ? (
        <Card className="p-3 p-md-4" as="section" aria-labelledby="years-title">
          <h2 id="years-title" className="h5">
            {make.name} {model.name}: Years And Variants
          </h2>
          <AddYearsForm key={model.id} modelId={model.id} />
          <ModelVehicles
            modelId={model.id}
            onDelete={(vehicle) =>
              setPending({
                title: `Delete the ${vehicle.label}?`,
                body: 'A vehicle in a customer’s garage cannot be deleted.',
                run: () => deleteVehicle.mutateAsync(vehicle.id),
                done: `${vehicle.label} was deleted`,
              })
            }
          />
        </Card>
      ) : null}

      <ConfirmDialog
        show={pending !== null}
        title={pending?.title ?? ''}
        body={pending?.body}
        busy={deleting}
        onCancel={() => setPending(null)}
        onConfirm={() => void confirmDelete()}
      />
    </section>
  );
}

/**
 * The shape the three add forms share: their fields in one row, the submit button at its end (below the fields on
 * a phone). The button's column is nudged down to the inputs' line, past the labels.
 */
function AddInRowForm({
  label,
  onSubmit,
  busy,
  submitLabel,
  busyLabel,
  stackBelow = 'sm',
  children,
}: {
  label: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  /** The breakpoint below which the button goes under the fields. */
  stackBelow?: 'sm' | 'md';
  children: ReactNode;
}) {
  const buttonCol = stackBelow === 'sm' ? { sm: 'auto' as const } : { xs: 12, md: 'auto' as const };
  return (
    <Form noValidate onSubmit={onSubmit} aria-label={label}>
      <Row className="g-2 align-items-start">
        {children}
        <Col {...buttonCol} className={`pt-${stackBelow}-4 mt-${stackBelow}-2`}>
          <SubmitButton busy={busy} busyLabel={busyLabel} className="btn-brand">
            {submitLabel}
          </SubmitButton>
        </Col>
      </Row>
    </Form>
  );
}

function AddMakeForm({ onAdded }: { onAdded(id: string): void }) {
  const create = useCreateMake();
  const form = useForm<VehicleMakeInput>({
    resolver: zodResolver(vehicleMakeInputSchema),
    defaultValues: { name: '' },
  });
  const submit = submitOrShow(form, async (values) => {
    const made = await create.mutateAsync(values);
    toast.success(`${made.name} was added`);
    form.reset({ name: '' });
    onAdded(made.id);
  });
  return (
    <AddInRowForm
      label="Add a make"
      onSubmit={submit}
      busy={form.formState.isSubmitting}
      submitLabel="Add Make"
      busyLabel="Adding the make"
    >
      <Col sm>
        <FormField form={form} name="name" label="New make" id="add-make-name" maxLength={40} autoComplete="off" />
      </Col>
    </AddInRowForm>
  );
}

function AddModelForm({ makeId, onAdded }: { makeId: string; onAdded(id: string): void }) {
  const create = useCreateModel();
  const form = useForm<z.input<typeof vehicleModelInputSchema>, unknown, VehicleModelInput>({
    resolver: zodResolver(vehicleModelInputSchema),
    defaultValues: { makeId, name: '', type: 'motorcycle' },
  });
  const typeError = form.formState.errors.type?.message;
  const submit = submitOrShow(form, async (values) => {
    const made = await create.mutateAsync(values);
    toast.success(`${made.make} ${made.name} was added`);
    form.reset({ makeId, name: '', type: values.type });
    onAdded(made.id);
  });
  return (
    <AddInRowForm
      label="Add a model"
      onSubmit={submit}
      busy={form.formState.isSubmitting}
      submitLabel="Add Model"
      busyLabel="Adding the model"
    >
      <Col sm>
        <FormField form={form} name="name" label="New model" id="add-model-name" maxLength={60} autoComplete="off" />
      </Col>
      <Col sm="auto">
        <Form.Group controlId="add-model-type" className="mb-3">
          <Form.Label>Type</Form.Label>
          <Form.Select {...form.register('type')} isInvalid={Boolean(typeError)}>
            {vehicleTypes.map((type) => (
              <option key={type} value={type}>
                {vehicleTypeLabels[type]}
              </option>
            ))}
          </Form.Select>
          {typeError ? (
            <Form.Control.Feedback type="invalid" role="alert">
              {typeError}
            </Form.Control.Feedback>
          ) : null}
        </Form.Group>
      </Col>
    </AddInRowForm>
  );
}

/** The first and last model year of a range: the same number input twice. */
const yearFields = [
  { name: 'yearFrom', label: 'Year From', id: 'add-years-from' },
  { name: 'yearTo', label: 'Year To', id: 'add-years-to' },
] as const;

function AddYearsForm({ modelId }: { modelId: string }) {
  const create = useCreateVehicles();
  const form = useForm<z.input<typeof vehicleInputSchema>, unknown, VehicleInput>({
    resolver: zodResolver(vehicleInputSchema),
    defaultValues: { modelId, yearFrom: blankNumber, yearTo: blankNumber, variant: '' },
  });
  const submit = submitOrShow(form, async (values) => {
    // A blank variant is the base model.
    const made = await create.mutateAsync({ ...values, variant: values.variant?.trim() || null });
    toast.success(`${made.length} ${made.length === 1 ? 'year' : 'years'} of this model ready`);
    form.reset({ modelId, yearFrom: blankNumber, yearTo: blankNumber, variant: '' });
  });
  return (
    <AddInRowForm
      label="Add years"
      onSubmit={submit}
      busy={form.formState.isSubmitting}
      submitLabel="Add Years"
      busyLabel="Adding the years"
      stackBelow="md"
    >
      {yearFields.map(({ name, label, id }) => (
        <Col xs={6} md={3} key={name}>
          <FormField form={form} name={name} label={label} id={id} type="number" inputMode="numeric" asNumber />
        </Col>
      ))}
      <Col xs={12} md>
        <FormField
          form={form}
          name="variant"
          label="Variant"
          id="add-years-variant"
          maxLength={40}
          placeholder="Blank for the base model"
          autoComplete="off"
        />
      </Col>
    </AddInRowForm>
  );
}

function ModelVehicles({
  modelId,
  onDelete,
}: {
  modelId: string;
  onDelete(vehicle: { id: string; label: string }): void;
}) {
  const vehicles = useQuery(vehicleListQueryOptions({ modelId, limit: 500 }));
  return (
    <>
      <QueryStatus query={vehicles} what="the years" loadingLabel="Loading the years…" />
      {vehicles.data?.items.length === 0 ? (
        <p className="text-body-secondary mb-0">No years of this model yet.</p>
      ) : null}
      {vehicles.data && vehicles.data.items.length > 0 ? (
        <ListGroup as="ul" aria-label="Years and variants">
          {vehicles.data.items.map((vehicle) => (
            <ListGroup.Item
              as="li"
              key={vehicle.id}
              className="d-flex align-items-center justify-content-between gap-2"
            >
              <span>
                {vehicle.year} · {vehicle.variant ?? BASE_VARIANT}
              </span>
              <Button
                variant="outline-danger"
                size="sm"
                aria-label={`Delete the ${vehicle.label}`}
                onClick={() => onDelete(vehicle)}
              >
                Delete
              </Button>
            </ListGroup.Item>
          ))}
        </ListGroup>
      ) : null}
    </>
  );
}

/** Choose a make or model to work on, and delete the chosen one. */
function PickOrDelete({
  id,
  label,
  placeholder,
  value,
  options,
  onChange,
  deleteLabel,
  onDelete,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  options: { value: string; label: string }[];
  onChange(value: string): void;
  deleteLabel: string;
  /** Null until one is chosen. */
  onDelete: (() => void) | null;
}) {
  return (
    <Form.Group controlId={id} className="mt-2">
      <Form.Label>{label}</Form.Label>
      <div className="d-flex flex-wrap gap-2">
        <Form.Select className="w-auto flex-grow-1" value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{placeholder}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Form.Select>
        {onDelete ? (
          <Button variant="outline-danger" onClick={onDelete}>
            {deleteLabel}
          </Button>
        ) : null}
      </div>
    </Form.Group>
  );
}
