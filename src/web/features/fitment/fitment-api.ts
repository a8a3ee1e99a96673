import { z } from 'zod';
import {
  type Garage,
  type GarageAdd,
  type GarageMerge,
  garageSchema,
  type Vehicle,
  type VehicleInput,
  type VehicleMake,
  type VehicleMakeInput,
  type VehicleModel,
  type VehicleModelInput,
  vehicleMakeSchema,
  vehicleModelSchema,
  vehicleSchema,
} from '../../../shared/schemas/fitment.ts';
import { api } from '../../lib/api-client.ts';

/*
 * My Garage (signed in) and the admin's vehicle writes. The vehicle lists themselves are read through
 * lib/vehicle-queries.ts, which the catalogue's product form shares. The garage calls are loaded on first use
 * (garage-queries.ts), so keep this module out of static imports of code every page runs.
 */

/** `GET /api/garage`; its query (keys, options) is in garage-queries.ts. */
export function fetchGarage(signal?: AbortSignal): Promise<Garage> {
  return api('/garage', { schema: garageSchema, signal });
}

export function addToGarage(input: GarageAdd): Promise<Garage> {
  return api('/garage', { method: 'POST', body: input, schema: garageSchema });
}

export function renameGarageEntry(id: string, name: string | null): Promise<Garage> {
  return api(`/garage/${encodeURIComponent(id)}`, { method: 'PATCH', body: { name }, schema: garageSchema });
}

export function removeGarageEntry(id: string): Promise<Garage> {
  return api(`/garage/${encodeURIComponent(id)}`, { method: 'DELETE', schema: garageSchema });
}

export function setCurrentGarageEntry(id: string | null): Promise<Garage> {
  return api('/garage/current', { method: 'PUT', body: { id }, schema: garageSchema });
}

export function mergeGarage(input: GarageMerge): Promise<Garage> {
  return api('/garage/merge', { method: 'POST', body: input, schema: garageSchema });
}

// ---- Admin: makes, models and vehicles (model years and variants).

export function createMake(input: VehicleMakeInput): Promise<VehicleMake> {
  return api('/vehicle/make', { method: 'POST', body: input, schema: vehicleMakeSchema });
}

export async function deleteMake(id: string): Promise<void> {
  await api(`/vehicle/make/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function createModel(input: VehicleModelInput): Promise<VehicleModel> {
  return api('/vehicle/model', { method: 'POST', body: input, schema: vehicleModelSchema });
}

export async function deleteModel(id: string): Promise<void> {
  await api(`/vehicle/model/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function createVehicles(input: VehicleInput): Promise<Vehicle[]> {
  return api('/vehicle', { method: 'POST', body: input, schema: z.array(vehicleSchema) });
}

export async function deleteVehicle(id: string): Promise<void> {
  await api(`/vehicle/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
