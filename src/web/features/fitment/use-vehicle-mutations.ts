import { useMutation, useQueryClient } from '@tanstack/react-query';
import { refreshAfterWrite } from '../../lib/replace-cached.ts';
import { vehicleKeys } from '../../lib/vehicle-queries.ts';
import { createMake, createModel, createVehicles, deleteMake, deleteModel, deleteVehicle } from './fitment-api.ts';

/**
 * Admin changes to makes, models and vehicles refresh every vehicle list: the selector's steps, the admin pickers
 * and the product form's fitment pickers all read them. A refusal (a make that still has models) refreshes too:
 * someone else may have changed the list meanwhile.
 */
function useVehicleMutation<Input, Output>(call: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => refreshAfterWrite(queryClient, vehicleKeys.all),
  });
}

export const useCreateMake = () => useVehicleMutation(createMake);
export const useDeleteMake = () => useVehicleMutation(deleteMake);
export const useCreateModel = () => useVehicleMutation(createModel);
export const useDeleteModel = () => useVehicleMutation(deleteModel);
export const useCreateVehicles = () => useVehicleMutation(createVehicles);
export const useDeleteVehicle = () => useVehicleMutation(deleteVehicle);
