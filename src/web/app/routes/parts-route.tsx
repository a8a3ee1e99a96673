import type { Part } from '../../../shared/schemas/parts.ts';
import { PartsPage } from '../../features/catalog/parts-page.tsx';
import { FitBadge } from '../../features/fitment/fit-badge.tsx';
import { VehicleFinder } from '../../features/fitment/vehicle-finder.tsx';
import { useGarage } from '../../lib/current-vehicle.tsx';

/**
 * /allparts: the catalogue's parts list for the shopper's current vehicle. Without one, the vehicle
 * selector stands above the list; with one, each card says whether the part fits it.
 */
export function Component() {
  const garage = useGarage();
  const vehicle = garage.current;
  return (
    <PartsPage
      vehicle={vehicle}
      vehicleReady={garage.status !== 'pending'}
      vehiclePanel={vehicle ? null : <VehicleFinder idPrefix="parts-vehicle" />}
      renderBadge={(part: Part) => <FitBadge fit={part.fit} vehicleLabel={vehicle?.label} />}
    />
  );
}
