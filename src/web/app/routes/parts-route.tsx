import type { Part } from '../../../shared/schemas/parts.ts';
import { PartsPage } from '../../features/catalog/parts-page.tsx';
import { FitBadge } from '../../features/fitment/fit-badge.tsx';
import { VehicleFinderDisclosure } from '../../features/fitment/vehicle-finder.tsx';
import { useGarage } from '../../lib/current-vehicle.tsx';

/**
 * /allparts: the catalogue's parts list for the shopper's current vehicle. Without one, the vehicle
 * selector stands under the search (one button on a phone); with one, the bar under the navigation names it and
 * each card says whether the part fits it.
 */
export function Component() {
  const garage = useGarage();
  const vehicle = garage.current;
  return (
    <PartsPage
      vehicle={vehicle}
      vehicleReady={garage.status !== 'pending'}
      vehiclePanel={vehicle ? null : <VehicleFinderDisclosure idPrefix="parts-vehicle" />}
      renderBadge={(part: Part) => <FitBadge fit={part.fit} vehicleLabel={vehicle?.label} />}
    />
  );
}
