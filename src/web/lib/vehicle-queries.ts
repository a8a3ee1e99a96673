import { queryOptions } from '@tanstack/react-query';
import type {
  VehicleListQuery,
  VehicleMakesQuery,
  VehicleModelsQuery,
  VehicleYearsQuery,
} from '../../shared/schemas/fitment.ts';
import { api, apiPage, lazySchemas } from './api-client.ts';
import { queryRoots } from './query-keys.ts';

/*
 * The vehicle lists, read by two features: the fitment feature's selector (Type → Year → Make → Model → Variant)
 * and the catalogue's product form (make → model → year-range pickers of a fitment row). They are reference data
 * like paths, so they live here rather than in one feature that the other may not import
 * (docs/contributing.md: a piece two features need goes to lib/). Admin writes invalidate `vehicleKeys.all`.
 */

/** The answers' schemas, loaded with the first answer to check (ADR 018). */
const schemas = lazySchemas(
  () => import('./vehicle-schemas.ts').then((module) => module.vehicleAnswers),
  ['types', 'years', 'makes', 'models', 'vehicles', 'vehicle'],
);

export const vehicleKeys = {
  all: queryRoots.vehicles,
  types: () => [...queryRoots.vehicles, 'types'] as const,
  years: (query: VehicleYearsQuery) => [...queryRoots.vehicles, 'years', query] as const,
  makes: (query: VehicleMakesQuery) => [...queryRoots.vehicles, 'makes', query] as const,
  models: (query: VehicleModelsQuery) => [...queryRoots.vehicles, 'models', query] as const,
  list: (query: VehicleListQuery) => [...queryRoots.vehicles, 'list', query] as const,
  detail: (id: string) => [...queryRoots.vehicles, 'detail', id] as const,
};

/** Reference data changes only when an admin edits it: no need to ask again while a page is open. */
const STALE = 5 * 60_000;

export const vehicleTypesQueryOptions = queryOptions({
  queryKey: vehicleKeys.types(),
  queryFn: ({ signal }) => api('/vehicle/types', { schema: schemas.types, signal }),
  staleTime: STALE,
});

export function vehicleYearsQueryOptions(query: VehicleYearsQuery) {
  return queryOptions({
    queryKey: vehicleKeys.years(query),
    queryFn: ({ signal }) => api('/vehicle/years', { query, schema: schemas.years, signal }),
    staleTime: STALE,
  });
}

export function vehicleMakesQueryOptions(query: VehicleMakesQuery) {
  return queryOptions({
    queryKey: vehicleKeys.makes(query),
    queryFn: ({ signal }) => api('/vehicle/makes', { query, schema: schemas.makes, signal }),
    staleTime: STALE,
  });
}

export function vehicleModelsQueryOptions(query: VehicleModelsQuery) {
  return queryOptions({
    queryKey: vehicleKeys.models(query),
    queryFn: ({ signal }) => api('/vehicle/models', { query, schema: schemas.models, signal }),
    staleTime: STALE,
  });
}

/** `GET /api/vehicle`: the selector's variants of one model year, or a page of the admin list with its total. */
export function vehicleListQueryOptions(query: VehicleListQuery) {
  return queryOptions({
    queryKey: vehicleKeys.list(query),
    queryFn: ({ signal }) => apiPage('/vehicle', { query, schema: schemas.vehicles, signal }),
    staleTime: STALE,
  });
}

/** `GET /api/vehicle/{id}`: one vehicle (404 once an admin has deleted it). */
export function vehicleQueryOptions(id: string) {
  return queryOptions({
    queryKey: vehicleKeys.detail(id),
    queryFn: ({ signal }) => api(`/vehicle/${encodeURIComponent(id)}`, { schema: schemas.vehicle, signal }),
    staleTime: STALE,
  });
}
