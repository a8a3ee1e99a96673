import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useRef } from 'react';
import type { Garage, Vehicle } from '../../shared/schemas/fitment.ts';
import { garageQueryOptions } from '../features/fitment/garage-queries.ts';
import {
  useAddToGarage,
  useMergeGarage,
  useRemoveGarageEntry,
  useRenameGarageEntry,
  useSetCurrentGarageEntry,
} from '../features/fitment/use-garage-mutations.ts';
import { mergeBody, useVisitorGarage, visitorGarage } from '../features/fitment/visitor-garage.ts';
import { ApiError } from '../lib/api-client.ts';
import { useAuth } from '../lib/auth-context.tsx';
import {
  GarageContext,
  type GarageState,
  type GarageVehicle,
  readLastVehicle,
  storeLastVehicle,
} from '../lib/current-vehicle.tsx';
import { useHydrated } from '../lib/hydration.ts';

function currentOf(garage: Garage): Vehicle | null {
  return garage.vehicles.find((entry) => entry.id === garage.currentId)?.vehicle ?? null;
}

/**
 * The one garage of the app, given to every page: a visitor's in this browser, a signed-in user's on the
 * server. When someone signs in (or up) with vehicles in the browser's garage, those join the account's garage
 * (POST /api/garage/merge, the browser's current vehicle becoming the current one) and the browser's copy is cleared.
 */
export function GarageProvider({ children }: { children: ReactNode }) {
  const { status: authStatus } = useAuth();
  const queryClient = useQueryClient();
  const visitor = useVisitorGarage();
  // A stored token is checked by GET /api/me; the garage is asked for alongside, not after it.
  const owner: GarageState['owner'] = authStatus === 'signed-out' ? 'visitor' : 'account';
  const server = useQuery({ ...garageQueryOptions, enabled: owner === 'account' });

  const mergeNow = useMergeGarage();
  const addEntry = useAddToGarage();
  const renameEntry = useRenameGarageEntry();
  const removeEntry = useRemoveGarageEntry();
  const setCurrentEntry = useSetCurrentGarageEntry();

  const merging = useRef(false);
  useEffect(() => {
    if (authStatus !== 'signed-in' || visitor.vehicles.length === 0 || merging.current) return;
    merging.current = true;
    mergeNow(mergeBody(visitor))
      .then(() => visitorGarage.clear())
      // Kept in the browser: the next sign-in or reload tries again.
      .catch(() => {})
      .finally(() => {
        merging.current = false;
      });
  }, [authStatus, visitor, mergeNow]);

  const mergePending = owner === 'account' && visitor.vehicles.length > 0;
  const status: GarageState['status'] =
    owner === 'visitor'
      ? 'ready'
      : server.isError && !mergePending
        ? 'error'
        : server.data && !mergePending
          ? 'ready'
          : 'pending';

  const vehicles: GarageVehicle[] = useMemo(() => {
    if (owner === 'visitor') {
      return visitor.vehicles.map((entry) => ({
        id: entry.vehicleId,
        vehicle: entry.vehicle,
        name: entry.name,
        current: entry.vehicleId === visitor.currentVehicleId,
      }));
    }
    return (server.data?.vehicles ?? []).map((entry) => ({
      id: entry.id,
      vehicle: entry.vehicle,
      name: entry.name,
      current: entry.id === server.data?.currentId,
    }));
  }, [owner, visitor, server.data]);

  const current: Vehicle | null =
    owner === 'visitor'
      ? (visitor.vehicles.find((entry) => entry.vehicleId === visitor.currentVehicleId)?.vehicle ?? null)
      : status === 'ready' && server.data
        ? currentOf(server.data)
        : readLastVehicle();

  // Remembered for the next page load (and the router's loaders), once the garage has said which it is. Not while a
  // server-rendered page hydrates: that render shows no vehicle whatever this browser keeps.
  const hydrated = useHydrated();
  useEffect(() => {
    if (hydrated && status === 'ready') storeLastVehicle(current);
  }, [hydrated, status, current]);

  // The garage every part card reads (fit badges): its value changes only when what it says changes, not on each
  // render of this provider (a query's or mutation's result is a new object every render, their functions are not).
  // Re-rendering every card when the page says it is hydrated would be a long task on a slow phone's CPU.
  const { error: serverError, refetch } = server;
  const value = useMemo<GarageState>(() => {
    const account = {
      async choose(vehicle: Vehicle) {
        const entry = vehicles.find((item) => item.vehicle.id === vehicle.id);
        if (entry) {
          if (!entry.current) await setCurrentEntry(entry.id);
          return;
        }
        try {
          await addEntry({ vehicleId: vehicle.id, current: true });
        } catch (error) {
          // Already there (added in another tab): make that entry the current one.
          if (!(error instanceof ApiError && error.status === 409)) throw error;
          const garage = await queryClient.fetchQuery({ ...garageQueryOptions, staleTime: 0 });
          const existing = garage.vehicles.find((item) => item.vehicle.id === vehicle.id);
          if (existing && garage.currentId !== existing.id) await setCurrentEntry(existing.id);
        }
      },
      async add(vehicle: Vehicle, options: { name?: string | null; current?: boolean } = {}) {
        await addEntry({ vehicleId: vehicle.id, name: options.name?.trim() || null, current: options.current });
      },
      async setCurrent(id: string | null) {
        await setCurrentEntry(id);
      },
      async rename(id: string, name: string | null) {
        await renameEntry({ id, name: name?.trim() || null });
      },
      async remove(id: string) {
        await removeEntry(id);
      },
    };
    const browser = {
      choose: (vehicle: Vehicle) => visitorGarage.add(vehicle, { current: true }),
      add: (vehicle: Vehicle, options: { name?: string | null; current?: boolean } = {}) =>
        visitorGarage.add(vehicle, options),
      async setCurrent(id: string | null) {
        visitorGarage.setCurrent(id);
      },
      async rename(id: string, name: string | null) {
        visitorGarage.rename(id, name);
      },
      async remove(id: string) {
        visitorGarage.remove(id);
      },
    };
    const forgetIfGone = async () => {
      const gone = current;
      if (!gone) return;
      try {
        // Loaded here, not with the page: lib/vehicle-queries.ts brings zod, which no first paint needs. Asked
        // afresh: a cached answer may be from before the deletion.
        const { vehicleQueryOptions } = await import('../lib/vehicle-queries.ts');
        await queryClient.fetchQuery({ ...vehicleQueryOptions(gone.id), staleTime: 0 });
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) return;
        if (owner === 'visitor') visitorGarage.remove(gone.id);
        else await setCurrentEntry(null);
      }
    };
    return {
      owner,
      status,
      forgetIfGone,
      error: serverError,
      retry: () => void refetch(),
      vehicles,
      current,
      ...(owner === 'account' ? account : browser),
    };
  }, [
    owner,
    status,
    serverError,
    refetch,
    vehicles,
    current,
    addEntry,
    renameEntry,
    removeEntry,
    setCurrentEntry,
    queryClient,
  ]);

  return <GarageContext.Provider value={value}>{children}</GarageContext.Provider>;
}
