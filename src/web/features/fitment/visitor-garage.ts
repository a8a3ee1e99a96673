import type { GarageMerge, Vehicle } from '../../../shared/schemas/fitment.ts';
import { isVehicle } from '../../lib/current-vehicle.tsx';
import { localStore } from '../../lib/local-store.ts';

/*
 * This module runs before every page's first paint, so it imports no values from the shared schemas (which would
 * bring zod along): the capacity is read from them when a vehicle is added, by then already loaded.
 */
const loadRules = () => import('../../../shared/schemas/fitment.ts');

/**
 * A visitor's garage, kept in this browser (localStorage) until they sign in, when it is merged into the account's
 * garage (POST /api/garage/merge) and cleared. It keeps what the merge needs (vehicle ids, names, the current one)
 * and each Vehicle for display, so it shows without asking the server.
 */
const KEY = 'redline.garage';

export interface VisitorGarage {
  vehicles: { vehicleId: string; name: string | null; vehicle: Vehicle }[];
  currentVehicleId: string | null;
}

/** What was stored, if it still has this shape (it may have been written by an older release, or by hand). */
function parseGarage(value: unknown): VisitorGarage | null {
  if (typeof value !== 'object' || value === null) return null;
  const { vehicles, currentVehicleId } = value as Record<string, unknown>;
  if (!Array.isArray(vehicles)) return null;
  if (currentVehicleId !== null && typeof currentVehicleId !== 'string') return null;
  const valid = vehicles.every((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return false;
    const { vehicleId, name, vehicle } = entry as Record<string, unknown>;
    return typeof vehicleId === 'string' && (name === null || typeof name === 'string') && isVehicle(vehicle);
  });
  return valid ? { vehicles: vehicles as VisitorGarage['vehicles'], currentVehicleId } : null;
}

const EMPTY: VisitorGarage = { vehicles: [], currentVehicleId: null };

const store = localStore<VisitorGarage>({
  key: KEY,
  empty: EMPTY,
  parse: parseGarage,
  isEmpty: (garage) => garage.vehicles.length === 0 && garage.currentVehicleId === null,
});
const snapshot = store.read;
const write = store.write;

export function useVisitorGarage(): VisitorGarage {
  return store.useValue();
}

export const visitorGarage = {
  read: snapshot,
  /** Adds the vehicle (once) and makes it current unless told otherwise; a full garage says so as the server would. */
  async add(vehicle: Vehicle, options: { name?: string | null; current?: boolean } = {}) {
    const { GARAGE_CAPACITY } = await loadRules();
    const garage = snapshot();
    const exists = garage.vehicles.some((entry) => entry.vehicleId === vehicle.id);
    if (!exists && garage.vehicles.length >= GARAGE_CAPACITY) {
      throw new Error(`A Garage Holds At Most ${GARAGE_CAPACITY} Vehicles`);
    }
    const vehicles = exists
      ? garage.vehicles
      : [...garage.vehicles, { vehicleId: vehicle.id, name: options.name?.trim() || null, vehicle }];
    write({ vehicles, currentVehicleId: options.current === false ? garage.currentVehicleId : vehicle.id });
  },
  setCurrent(vehicleId: string | null) {
    const garage = snapshot();
    if (vehicleId !== null && !garage.vehicles.some((entry) => entry.vehicleId === vehicleId)) return;
    write({ ...garage, currentVehicleId: vehicleId });
  },
  rename(vehicleId: string, name: string | null) {
    const garage = snapshot();
    write({
      ...garage,
      vehicles: garage.vehicles.map((entry) =>
        entry.vehicleId === vehicleId ? { ...entry, name: name?.trim() || null } : entry,
      ),
    });
  },
  remove(vehicleId: string) {
    const garage = snapshot();
    write({
      vehicles: garage.vehicles.filter((entry) => entry.vehicleId !== vehicleId),
      currentVehicleId: garage.currentVehicleId === vehicleId ? null : garage.currentVehicleId,
    });
  },
  clear() {
    write(EMPTY);
  },
};

/** The body of POST /api/garage/merge for this garage. */
export function mergeBody(garage: VisitorGarage): GarageMerge {
  return {
    vehicles: garage.vehicles.map((entry) => ({ vehicleId: entry.vehicleId, name: entry.name })),
    currentVehicleId: garage.currentVehicleId,
  };
}
