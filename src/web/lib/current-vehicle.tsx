import { createContext, useContext, useEffect, useRef } from 'react';
import type { Vehicle } from '../../shared/schemas/fitment.ts';
import { ApiError } from './api-client.ts';

/** One vehicle of the garage as every page sees it, whoever keeps it (this browser or the account). */
export interface GarageVehicle {
  /** The garage entry's id (signed in) or the vehicle's id (a visitor's garage, which has no entries). */
  id: string;
  vehicle: Vehicle;
  /** The owner's nickname for it ("Race bike"), or null. */
  name: string | null;
  current: boolean;
}

/**
 * The garage and its current vehicle, for every page: a visitor's lives in this browser, a signed-in user's on the
 * server (a visitor's is merged into the account at sign-in). The app provides it (app/garage-provider.tsx);
 * features read it here, so none of them depends on the feature that stores it.
 */
export interface GarageState {
  owner: 'visitor' | 'account';
  /**
   * 'pending' while a signed-in user's garage loads (`current` is then the vehicle last shown in this browser),
   * 'error' when it could not be loaded (`retry` asks again).
   */
  status: 'pending' | 'ready' | 'error';
  error: unknown;
  retry(): void;
  vehicles: GarageVehicle[];
  current: Vehicle | null;
  /** Shop for this vehicle: adds it to the garage when it is not there yet, and makes it the current one. */
  choose(vehicle: Vehicle): Promise<void>;
  /** Adds a vehicle; it becomes the current one unless `current: false`. */
  add(vehicle: Vehicle, options?: { name?: string | null; current?: boolean }): Promise<void>;
  /** Makes a garage vehicle the current one (by `GarageVehicle.id`), or none. */
  setCurrent(id: string | null): Promise<void>;
  rename(id: string, name: string | null): Promise<void>;
  remove(id: string): Promise<void>;
  /**
   * A list or part answered 404 while naming the current vehicle: if the vehicle itself is gone (an admin deleted
   * it), the garage forgets it, so the pages work again without one.
   */
  forgetIfGone(): Promise<void>;
}

export const GarageContext = createContext<GarageState | null>(null);

export function useGarage(): GarageState {
  const garage = useContext(GarageContext);
  if (!garage) throw new Error('useGarage must be used inside the garage provider');
  return garage;
}

/**
 * For a page whose query names the current vehicle: the API answers 404 for a vehicle an admin has deleted since it
 * was chosen, so on a 404 the garage checks the vehicle and forgets it if it is gone (once per vehicle).
 */
export function useForgetVanishedVehicle(error: unknown): void {
  const garage = useGarage();
  const missing = error instanceof ApiError && error.status === 404 ? (garage.current?.id ?? null) : null;
  const forgetIfGone = useRef(garage.forgetIfGone);
  forgetIfGone.current = garage.forgetIfGone;
  useEffect(() => {
    if (missing) void forgetIfGone.current();
  }, [missing]);
}

/** The vehicle the shopper is shopping for, or null. */
export function useCurrentVehicle(): Vehicle | null {
  return useGarage().current;
}

/**
 * Whether a value read back from this browser's storage is a Vehicle. A plain check rather than the zod schema:
 * this runs before every page's first paint, and zod loads with the first page that needs it.
 */
export function isVehicle(value: unknown): value is Vehicle {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const strings = ['id', 'type', 'makeId', 'make', 'modelId', 'model', 'label'] as const;
  return (
    strings.every((key) => typeof v[key] === 'string') &&
    typeof v.year === 'number' &&
    (v.variant === null || typeof v.variant === 'string')
  );
}

/*
 * The vehicle last shown as current, remembered in this browser for whoever uses it: a page opened afresh shows it
 * at once (and the router's loaders can ask for its parts) while a signed-in user's garage is still on its way.
 */
const LAST_VEHICLE_KEY = 'redline.currentVehicle';

export function readLastVehicle(): Vehicle | null {
  try {
    const raw = localStorage.getItem(LAST_VEHICLE_KEY);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    return isVehicle(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function storeLastVehicle(vehicle: Vehicle | null): void {
  try {
    if (vehicle) localStorage.setItem(LAST_VEHICLE_KEY, JSON.stringify(vehicle));
    else localStorage.removeItem(LAST_VEHICLE_KEY);
  } catch {
    // Storage full or blocked: the page still works, it only forgets the vehicle on reload.
  }
}
