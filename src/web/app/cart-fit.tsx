import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { CartLine } from '../../shared/schemas/cart.ts';
import type { FitStatus } from '../../shared/schemas/fitment.ts';
import type { CartFit } from '../components/cart-fit.tsx';
import { partQueryOptions } from '../features/catalog/parts-api.ts';
import { FitBadge, fitText } from '../features/fitment/fit-badge.tsx';
import { useForgetVanishedVehicle, useGarage } from '../lib/current-vehicle.tsx';

/**
 * Whether each cart line fits the shopper's chosen vehicle, for the cart and checkout pages. The server decides fit:
 * each line asks the part's own answer for that vehicle (`GET /api/part/{id}?vehicle=`), the same answer the
 * purchase screen shows and caches, so a part just looked at costs no request. Null without a chosen vehicle.
 */
export function useCartFit(lines: readonly CartLine[]): CartFit | null {
  const garage = useGarage();
  const vehicle = garage.current;
  const answers = useQueries({
    queries: vehicle
      ? lines.map((line) => ({ ...partQueryOptions(line.partId, vehicle.id), enabled: garage.status !== 'pending' }))
      : [],
  });
  // A 404 naming the vehicle may mean the vehicle is gone (an admin deleted it): the garage then forgets it.
  useForgetVanishedVehicle(answers.find((answer) => answer.error)?.error ?? null);
  const fits = answers.map((answer) => answer.data?.fit);
  const key = fits.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the fits, a new array every render
  return useMemo(() => {
    if (!vehicle) return null;
    const byPart = new Map<string, FitStatus | undefined>(lines.map((line, index) => [line.partId, fits[index]]));
    return {
      vehicleLabel: vehicle.label,
      of(partId: string) {
        const fit = byPart.get(partId);
        if (!fit) return undefined;
        return {
          badge: <FitBadge fit={fit} vehicleLabel={vehicle.label} className="mb-1" />,
          misfit: fit === 'doesNotFit' ? fitText(fit, vehicle.label) : null,
        };
      },
    };
  }, [vehicle, lines, key]);
}
