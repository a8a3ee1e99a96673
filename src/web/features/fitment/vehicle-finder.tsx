import { type ReactNode, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useGarage } from '../../lib/current-vehicle.tsx';
import { useHydrated } from '../../lib/hydration.ts';
import { VehicleSelector } from './vehicle-selector.tsx';
import './fitment.css';

/**
 * 'Find parts that fit your vehicle': the selector as the home page and the parts list show it. Choosing a vehicle
 * makes it the one the shop is shopping for (and puts it in the garage).
 */
export function VehicleFinder({
  idPrefix,
  headingLevel = 2,
  title = 'Find parts that fit your vehicle',
  className = 'mb-4',
  children,
}: {
  idPrefix: string;
  headingLevel?: 2 | 3;
  title?: string;
  /** The section's outer spacing. */
  className?: string;
  /** Below the selector, e.g. a link to the parts that fit. */
  children?: ReactNode;
}) {
  const garage = useGarage();
  const Heading = `h${headingLevel}` as const;
  return (
    <section aria-labelledby={`${idPrefix}-title`} className={`bg-white border rounded p-3 p-md-4 ${className}`}>
      <Heading id={`${idPrefix}-title`} className="h4 mb-1">
        {title}
      </Heading>
      <p className="text-body-secondary small mb-3">
        {garage.current
          ? `Shopping for your ${garage.current.label}. Choose another vehicle to shop for it instead.`
          : 'Choose your vehicle once: every list and every part then says whether it fits.'}
      </p>
      <VehicleSelector
        idPrefix={idPrefix}
        submitLabel="Shop for this vehicle"
        onSelect={(vehicle) => garage.choose(vehicle)}
      />
      {children}
    </section>
  );
}

/**
 * The finder on the parts list without a vehicle: beside the search on a desktop, but on a phone its five steps
 * would fill the first screen, so there it is one 'Choose your vehicle' button that opens it in place. CSS hides
 * it on a phone, so the server's page is already short; the button works once the app runs.
 */
export function VehicleFinderDisclosure({ idPrefix }: { idPrefix: string }) {
  const [open, setOpen] = useState(false);
  const hydrated = useHydrated();
  const bodyId = `${idPrefix}-finder`;
  return (
    <div className="mt-3">
      <Button
        variant="outline-dark"
        className="vehicle-finder-toggle d-lg-none w-100"
        aria-expanded={open}
        aria-controls={bodyId}
        disabled={!hydrated}
        onClick={() => setOpen((shown) => !shown)}
      >
        Choose your vehicle
        <span aria-hidden="true">{open ? '\u25b4' : '\u25be'}</span>
      </Button>
      <div id={bodyId} className={open ? 'mt-2' : 'd-none d-lg-block'}>
        <VehicleFinder idPrefix={idPrefix} className="mb-0" />
      </div>
    </div>
  );
}
