import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { paths } from '../../../shared/paths.ts';
import { type GaragePatch, garagePatchSchema, vehicleTypeLabels } from '../../../shared/schemas/fitment.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormField } from '../../components/form-field.tsx';
import { EmptyState, LoadError, LoadingSpinner } from '../../components/query-state.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { type GarageVehicle, useGarage } from '../../lib/current-vehicle.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { submitOrShow } from './submit-or-show.ts';
import { VehicleSelector } from './vehicle-selector.tsx';

/** /dashboard/mygarage: the signed-in user's vehicles: add, name, remove, choose the current one. */
export function Component() {
  usePageTitle('My Garage');
  const garage = useGarage();
  const [toRemove, setToRemove] = useState<GarageVehicle | null>(null);
  const [removing, setRemoving] = useState(false);

  const run = async (action: () => Promise<void>, success: string) => {
    try {
      await action();
      toast.success(success);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  return (
    <section aria-labelledby="my-garage-title">
      <h1 id="my-garage-title" className="h3 mb-3">
        My Garage
      </h1>
      {garage.status === 'pending' ? (
        <LoadingSpinner label="Loading your garage…" />
      ) : garage.status === 'error' ? (
        <LoadError error={garage.error} onRetry={garage.retry} what="your garage" />
      ) : garage.vehicles.length === 0 ? (
        <EmptyState>
          <p className="mb-0">Your garage is empty. Add your vehicle below: every part then says whether it fits.</p>
        </EmptyState>
      ) : (
        <ul className="list-unstyled d-flex flex-column gap-3 mb-0" aria-label="Vehicles in My Garage">
          {garage.vehicles.map((entry) => (
            <li key={entry.id}>
              <GarageEntryCard
                entry={entry}
                onShopFor={() => run(() => garage.setCurrent(entry.id), `Shopping for your ${entry.vehicle.label}`)}
                onRename={(name) => garage.rename(entry.id, name)}
                onRemove={() => setToRemove(entry)}
              />
            </li>
          ))}
        </ul>
      )}
      {garage.current ? (
        <p className="mt-3 mb-0">
          <Link to={paths.parts}>See the parts that fit your {garage.current.label}</Link>
        </p>
      ) : null}

      <Card className="p-3 p-md-4 mt-4">
        <h2 className="h5 mb-3">Add A Vehicle</h2>
        <VehicleSelector
          idPrefix="garage-add"
          submitLabel="Add To My Garage"
          label="Add a vehicle to My Garage"
          wideFrom="xl"
          onSelect={async (vehicle) => {
            // The first vehicle is the one to shop for; later ones wait until chosen.
            await garage.add(vehicle, { current: garage.current === null });
            toast.success(`${vehicle.label} is in your garage`);
          }}
        />
      </Card>

      <ConfirmDialog
        show={toRemove !== null}
        title="Remove this vehicle?"
        body={toRemove ? `${toRemove.vehicle.label} will be removed from your garage.` : undefined}
        confirmLabel="Remove"
        busy={removing}
        onCancel={() => setToRemove(null)}
        onConfirm={async () => {
          if (!toRemove) return;
          setRemoving(true);
          await run(() => garage.remove(toRemove.id), `${toRemove.vehicle.label} was removed from your garage`);
          setRemoving(false);
          setToRemove(null);
        }}
      />
    </section>
  );
}

function GarageEntryCard({
  entry,
  onShopFor,
  onRename,
  onRemove,
}: {
  entry: GarageVehicle;
  onShopFor(): void;
  onRename(name: string | null): Promise<void>;
  onRemove(): void;
}) {
  const titleId = `garage-entry-${entry.id}`;
  return (
    <Card as="article" aria-labelledby={titleId} className={entry.current ? 'border-dark' : undefined}>
      <Card.Body>
        <div className="d-flex flex-wrap align-items-start justify-content-between gap-2 mb-2">
          <div>
            <h2 id={titleId} className="h5 mb-0">
              {entry.vehicle.label}
            </h2>
            <p className="small text-body-secondary mb-0">
              {vehicleTypeLabels[entry.vehicle.type]}
              {entry.name ? ` · “${entry.name}”` : ''}
            </p>
          </div>
          {entry.current ? (
            <span className="badge text-bg-dark">Current vehicle</span>
          ) : (
            <Button
              size="sm"
              variant="outline-dark"
              onClick={onShopFor}
              aria-label={`Shop for this vehicle: ${entry.vehicle.label}`}
            >
              Shop for this vehicle
            </Button>
          )}
        </div>
        <RenameForm entry={entry} onRename={onRename} />
        <Button variant="outline-danger" size="sm" onClick={onRemove} aria-label={`Remove ${entry.vehicle.label}`}>
          Remove
        </Button>
      </Card.Body>
    </Card>
  );
}

function RenameForm({ entry, onRename }: { entry: GarageVehicle; onRename(name: string | null): Promise<void> }) {
  const form = useForm<GaragePatch>({
    resolver: zodResolver(garagePatchSchema),
    defaultValues: { name: entry.name ?? '' },
  });
  const submit = submitOrShow(form, async ({ name }) => {
    await onRename(name || null);
    toast.success(name ? `Saved the name “${name}”` : 'Removed the name');
    form.reset({ name: name ?? '' });
  });
  return (
    <Form noValidate onSubmit={submit} aria-label={`Name for ${entry.vehicle.label}`} className="mb-2">
      <div className="d-flex flex-wrap gap-2 align-items-start">
        <div className="flex-grow-1">
          <FormField
            form={form}
            name="name"
            label="Nickname"
            id={`garage-name-${entry.id}`}
            maxLength={40}
            placeholder="e.g. Race bike"
            autoComplete="off"
          />
        </div>
        <SubmitButton busy={form.formState.isSubmitting} busyLabel="Saving the name" className="btn-brand mt-md-4">
          Save Name
        </SubmitButton>
      </div>
    </Form>
  );
}
