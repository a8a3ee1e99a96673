import type { ReactNode } from 'react';
import { useGarage } from '../../lib/current-vehicle.tsx';
import { VehicleSelector } from './vehicle-selector.tsx';

/**
 * 'Find parts that fit your vehicle': the selector as the home page and the parts list show it. Choosing a vehicle
 * makes it the one the shop is shopping for (and puts it in the garage).
 */
export function VehicleFinder({
  idPrefix,
  headingLevel = 2,
  title = 'Find parts that fit your vehicle',
  children,
}: {
  idPrefix: string;
  headingLevel?: 2 | 3;
  title?: string;
  /** Below the selector, e.g. a link to the parts that fit. */
  children?: ReactNode;
}) {
  const garage = useGarage();
  const Heading = `h${headingLevel}` as const;
  return (
    <section aria-labelledby={`${idPrefix}-title`} className="bg-white border rounded p-3 p-md-4 mb-4">
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
