import { useQueryClient } from '@tanstack/react-query';
import type { Garage, GarageAdd, GarageMerge } from '../../../shared/schemas/fitment.ts';
import { useMutationCall } from '../../lib/mutation-call.ts';
import { queryRoots } from '../../lib/query-keys.ts';
import { refreshAfterWrite, replaceCached } from '../../lib/replace-cached.ts';
import { garageKeys, loadGarageApi } from './garage-queries.ts';

/**
 * Every garage call answers the whole garage: it replaces the cached one, no second request. A new current vehicle
 * changes what every parts list and purchase screen says, but those queries carry the vehicle in their keys, so
 * they follow on their own.
 */
function useGarageMutation<Input>(call: (input: Input) => Promise<Garage>) {
  const queryClient = useQueryClient();
  return useMutationCall({
    mutationFn: call,
    onSuccess: (garage) => replaceCached(queryClient, garageKeys.mine(), garage),
    // A refusal (a vehicle removed in another tab, say) means this copy is out of date.
    onError: () => refreshAfterWrite(queryClient, queryRoots.garage),
  });
}

export function useAddToGarage() {
  return useGarageMutation(async (input: GarageAdd) => (await loadGarageApi()).addToGarage(input));
}

export function useRenameGarageEntry() {
  return useGarageMutation(async ({ id, name }: { id: string; name: string | null }) =>
    (await loadGarageApi()).renameGarageEntry(id, name),
  );
}

export function useRemoveGarageEntry() {
  return useGarageMutation(async (id: string) => (await loadGarageApi()).removeGarageEntry(id));
}

export function useSetCurrentGarageEntry() {
  return useGarageMutation(async (id: string | null) => (await loadGarageApi()).setCurrentGarageEntry(id));
}

/** Sign-in: the browser's garage joins the account's (POST /api/garage/merge). */
export function useMergeGarage() {
  return useGarageMutation(async (input: GarageMerge) => (await loadGarageApi()).mergeGarage(input));
}
