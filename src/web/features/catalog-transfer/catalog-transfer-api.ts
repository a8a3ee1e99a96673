import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import {
  type CatalogImport,
  catalogImportHistorySchema,
  catalogImportSchema,
  type VehicleImportResult,
  vehicleImportResultSchema,
} from '../../../shared/schemas/catalog-transfer.ts';
import { ApiError, api } from '../../lib/api-client.ts';
import { readToken } from '../../lib/auth-token.ts';

/** Imports are admin data of their own; a finished real import also changes the parts (see use-catalog-import.ts). */
export const catalogImportKeys = {
  all: ['catalog-imports'] as const,
  recent: ['catalog-imports', 'recent'] as const,
  history: (offset: number) => ['catalog-imports', 'history', offset] as const,
};

/** Imports per page of the history. */
export const HISTORY_PAGE = 10;

/** While the latest import runs, its progress is asked for every second; otherwise once per visit. */
export const recentImportsQuery = queryOptions({
  queryKey: catalogImportKeys.recent,
  queryFn: ({ signal }) => api('/admin/catalog/import', { schema: z.array(catalogImportSchema), signal }),
  staleTime: 0,
  refetchInterval: (query) => (query.state.data?.[0]?.status === 'running' ? 1000 : false),
});

/** A page of the import history, newest first; asked again every few seconds while one of its imports runs. */
export const importHistoryQuery = (offset: number) =>
  queryOptions({
    queryKey: catalogImportKeys.history(offset),
    queryFn: ({ signal }) =>
      api(`/admin/catalog/imports?limit=${HISTORY_PAGE}&offset=${offset}`, {
        schema: catalogImportHistorySchema,
        signal,
      }),
    staleTime: 0,
    placeholderData: (previous) => previous,
    refetchInterval: (query) => (query.state.data?.items.some((item) => item.status === 'running') ? 2000 : false),
  });

/** The bearer token and the server's error shape, for the two calls that do not send or receive JSON. */
async function rawCall(path: string, init: RequestInit): Promise<Response> {
  const token = readToken();
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network_error', 'Cannot reach the shop. Check your connection and try again.');
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as
      | { error?: { code?: string; message?: string; details?: unknown[] } }
      | undefined;
    throw new ApiError(
      response.status,
      body?.error?.code ?? 'http_error',
      body?.error?.message ?? `The shop answered ${response.status}. Please try again.`,
      body?.error?.details,
    );
  }
  return response;
}

/** POST /api/admin/catalog/import: the file itself is the body (streamed by the browser, never read into a string). */
export async function uploadCatalogCsv(file: File, dryRun: boolean): Promise<CatalogImport> {
  const query = new URLSearchParams({ dryRun: String(dryRun), fileName: file.name.slice(0, 200) });
  const response = await rawCall(`/admin/catalog/import?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv' },
    body: file,
  });
  return catalogImportSchema.parse(await response.json());
}

/** POST /api/admin/vehicles/import: the vehicle file is the body; a dry run changes nothing. */
export async function uploadVehicleCsv(file: File, dryRun: boolean): Promise<VehicleImportResult> {
  const response = await rawCall(`/admin/vehicles/import?dryRun=${dryRun}`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv' },
    body: file,
  });
  return vehicleImportResultSchema.parse(await response.json());
}

export function cancelCatalogImport(id: string): Promise<CatalogImport> {
  return api(`/admin/catalog/import/${id}/cancel`, { method: 'POST', schema: catalogImportSchema });
}

/**
 * An export, saved as a file. The server streams it; the browser needs the bearer token, which a plain link cannot
 * carry, so it is fetched and handed to the browser's download.
 */
export async function downloadCsv(path: string, query: Record<string, string>, fileName: string): Promise<void> {
  const params = new URLSearchParams(Object.entries(query).filter(([, value]) => value !== ''));
  const response = await rawCall(`${path}${params.size > 0 ? `?${params}` : ''}`, { method: 'GET' });
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const exportPaths = { products: '/admin/export/products.csv', orders: '/admin/export/orders.csv' } as const;
