import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CatalogImport } from '../../../shared/schemas/catalog-transfer.ts';
import { queryRoots } from '../../lib/query-keys.ts';
import { refreshAfterWrite } from '../../lib/replace-cached.ts';
import { cancelCatalogImport, catalogImportKeys, uploadCatalogCsv, uploadVehicleCsv } from './catalog-transfer-api.ts';

/** Start an import: the new one becomes the latest, and its progress is polled from there. */
export function useStartImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, dryRun }: { file: File; dryRun: boolean }) => uploadCatalogCsv(file, dryRun),
    onSuccess: (started) => {
      queryClient.setQueryData<CatalogImport[]>(catalogImportKeys.recent, (old) => [started, ...(old ?? [])]);
      // The latest import and the history (which now starts with this one).
      void queryClient.invalidateQueries({ queryKey: catalogImportKeys.all });
    },
  });
}

export function useCancelImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => cancelCatalogImport(id),
    onSuccess: () => refreshAfterWrite(queryClient, catalogImportKeys.all),
  });
}

/** When a real import ends, the catalogue the other pages show has changed. */
export function useForgetParts() {
  const queryClient = useQueryClient();
  return () => refreshAfterWrite(queryClient, queryRoots.parts);
}

/** When an import ends, the history shows how it ended. */
export function useRefreshHistory() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['catalog-imports', 'history'] });
}

/** Import (or check) a vehicle file: a real import changes the vehicle lists every selector and picker shows. */
export function useImportVehicles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, dryRun }: { file: File; dryRun: boolean }) => uploadVehicleCsv(file, dryRun),
    onSuccess: (result) => (result.dryRun ? undefined : refreshAfterWrite(queryClient, queryRoots.vehicles)),
  });
}
