import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PartPatch } from '../../../shared/schemas/parts.ts';
import { refreshAfterWrite } from '../../lib/replace-cached.ts';
import { createPart, deletePart, partKeys, updatePart } from './parts-api.ts';

/** Every change to the catalogue refreshes every parts list and detail (the home page's, the lists, a purchase). */
function useRefreshParts() {
  const queryClient = useQueryClient();
  return () => refreshAfterWrite(queryClient, partKeys.all);
}

export function useCreatePart() {
  const refresh = useRefreshParts();
  return useMutation({ mutationFn: createPart, onSuccess: refresh });
}

export function useUpdatePart() {
  const refresh = useRefreshParts();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: PartPatch }) => updatePart(id, patch),
    onSuccess: refresh,
  });
}

/** Refreshes after a failure too: a part someone else already deleted disappears from the list. */
export function useDeletePart() {
  const refresh = useRefreshParts();
  return useMutation({ mutationFn: deletePart, onSettled: refresh });
}
