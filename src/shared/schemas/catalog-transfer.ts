import { z } from 'zod';
import { orderStatuses } from '../enums.ts';

/**
 * Catalogue import and export as CSV (ADR 013). The columns, in the order export writes them; import reads
 * them by header name in any order. `mpn` is the key: a row whose part number (in any spelling, as search compares
 * them) names a part updates it, any other row adds one.
 */
export const productCsvColumns = [
  'mpn',
  'name',
  'brand',
  'oem_numbers',
  'category',
  'price',
  'stock',
  'minimum_order',
  'description',
  'image_url',
  'universal',
  'fitment',
] as const;
export type ProductCsvColumn = (typeof productCsvColumns)[number];
/** A file must name these; a column left out keeps its value on parts that exist (and its default on new ones). */
export const requiredProductCsvColumns = [
  'mpn',
  'name',
  'price',
  'stock',
  'image_url',
] as const satisfies ProductCsvColumn[];

/** The largest upload accepted, in bytes: the body is cut off with 413 past it. */
export const CATALOG_IMPORT_MAX_BYTES = 50 * 1024 * 1024;
/** At most this many errors are kept with an import (the count is always exact). */
export const CATALOG_IMPORT_KEPT_ERRORS = 1000;

/** One refused cell or row: the file's line (1 is the header) and the column by header name. */
export const importErrorSchema = z.object({
  line: z.number().int(),
  column: z.string().nullable().describe('The header name of the column, or null for the whole row'),
  message: z.string(),
});
export type ImportError = z.infer<typeof importErrorSchema>;

export const catalogImportStatuses = ['running', 'done', 'failed', 'cancelled'] as const;

/** An import as its page shows it: progress, errors so far, time left. */
export const catalogImportSchema = z.object({
  id: z.string(),
  status: z.enum(catalogImportStatuses),
  dryRun: z.boolean().describe('Validated only: nothing is written to the catalogue'),
  fileName: z.string(),
  createdBy: z.string().describe('The admin who uploaded the file (their email)'),
  totalRows: z.number().int(),
  rowsDone: z.number().int(),
  created: z.number().int().describe('Parts added (on a dry run: that would be added)'),
  updated: z.number().int().describe('Parts updated (on a dry run: that would be updated)'),
  errorCount: z.number().int(),
  errors: z.array(importErrorSchema).describe(`The first ${CATALOG_IMPORT_KEPT_ERRORS} errors, in file order`),
  secondsLeft: z.number().int().nullable().describe('Estimated from the pace so far; null until it can be'),
  message: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type CatalogImport = z.infer<typeof catalogImportSchema>;

/** One past import in the history: the import without its errors (their count stays). */
export const catalogImportSummarySchema = catalogImportSchema.omit({ errors: true, secondsLeft: true }).extend({
  refused: z.number().int().describe('Rows not imported: each had at least one error (errorCount counts the errors)'),
});
export type CatalogImportSummary = z.infer<typeof catalogImportSummarySchema>;

/** `GET /api/admin/catalog/imports?limit=&offset=`: the import history, newest first. */
export const catalogImportHistoryQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).optional().describe('At most 100; 20 when left out'),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
});
export type CatalogImportHistoryQuery = z.infer<typeof catalogImportHistoryQuerySchema>;

export const catalogImportHistorySchema = z.object({
  items: z.array(catalogImportSummarySchema),
  total: z.number().int().describe('Every import kept, dry runs included'),
});
export type CatalogImportHistory = z.infer<typeof catalogImportHistorySchema>;

/** `POST /api/admin/catalog/import?dryRun=true&fileName=…` (the body is the CSV file itself, `text/csv`). */
export const catalogImportQuerySchema = z.strictObject({
  dryRun: z.enum(['true', 'false']).optional().describe('true: validate and report only'),
  fileName: z.string().trim().max(200).optional().describe('Shown with the import'),
});
export type CatalogImportQuery = z.infer<typeof catalogImportQuerySchema>;

const isoDate = z.iso.date({ error: 'Use A Date Like 2026-01-31' });

/** `GET /api/admin/export/orders.csv`: orders of one status, placed between two days (inclusive). */
export const orderExportQuerySchema = z
  .strictObject({
    status: z.enum(orderStatuses).optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: 'From Must Not Be After To',
    path: ['to'],
  });
export type OrderExportQuery = z.infer<typeof orderExportQuerySchema>;

export const orderCsvColumns = [
  'order_id',
  'created_at',
  'status',
  'email',
  'user_name',
  'part_id',
  'part_name',
  'quantity',
  'unit_price',
  'total',
  'address',
  'phone',
  'transaction_id',
  'carrier',
  'tracking_number',
] as const;

// ---- Vehicles by CSV: makes, models, model years and variants in one file, checked as a whole.

/**
 * The vehicle CSV's columns (any order, by header name): `type` (motorcycle, car, atv, scooter; needed for a model
 * that does not exist yet), `make`, `model`, `years` (`2019` or `2019-2023`), `variant` (optional).
 */
export const vehicleCsvColumns = ['type', 'make', 'model', 'years', 'variant'] as const;
export type VehicleCsvColumn = (typeof vehicleCsvColumns)[number];
export const requiredVehicleCsvColumns = ['make', 'model', 'years'] as const satisfies VehicleCsvColumn[];
/** The largest vehicle file taken, in bytes (the body is refused with 413 past it). */
export const VEHICLE_IMPORT_MAX_BYTES = 1024 * 1024;
/** The most rows one vehicle file may have: all of them are written in one transaction. */
export const VEHICLE_IMPORT_MAX_ROWS = 5000;

/** `POST /api/admin/vehicles/import?dryRun=true` (the body is the CSV file itself, `text/csv`). */
export const vehicleImportQuerySchema = z.strictObject({
  dryRun: z.enum(['true', 'false']).optional().describe('true: check every row and report, change nothing'),
});
export type VehicleImportQuery = z.infer<typeof vehicleImportQuerySchema>;

/** What a vehicle file did (or, on a dry run, would do): nothing at all while any row has an error. */
export const vehicleImportResultSchema = z.object({
  dryRun: z.boolean(),
  rows: z.number().int().describe('Rows after the header'),
  makesAdded: z.number().int(),
  modelsAdded: z.number().int(),
  vehiclesAdded: z.number().int().describe('Model years (per variant) added'),
  vehiclesExisting: z.number().int().describe('Model years the file names that were there already (kept)'),
  errors: z.array(importErrorSchema).describe('Every row error, in file order; none when the file was imported'),
});
export type VehicleImportResult = z.infer<typeof vehicleImportResultSchema>;
