import { queryOptions } from '@tanstack/react-query';
import { queryRoots } from '../../lib/query-keys.ts';

/*
 * The garage's query, apart from fitment-api.ts: every page's first paint needs the garage (app/garage-provider.tsx),
 * but not the API module and the zod schemas that check its answers, which load on the first call instead.
 */
export const loadGarageApi = () => import('./fitment-api.ts');

export const garageKeys = {
  all: queryRoots.garage,
  mine: () => [...queryRoots.garage, 'mine'] as const,
};

export const garageQueryOptions = queryOptions({
  queryKey: garageKeys.mine(),
  queryFn: async ({ signal }) => (await loadGarageApi()).fetchGarage(signal),
});
