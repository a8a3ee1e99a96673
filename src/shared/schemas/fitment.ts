import { z } from 'zod';
import { type VehicleType, vehicleTypeLabels, vehicleTypes } from '../enums.ts';

/**
 * Vehicles, My Garage and fitment (ADR 010). A vehicle is one model year of one model of one make, with an
 * optional variant (engine or trim, e.g. "1000 ABS"); its id is what a garage, a `?vehicle=` filter and a purchase
 * screen name. Makes, models, years and variants are data, managed by admins.
 */

// In enums.ts (no zod there): the web app's vehicle selector reads them before any schema is loaded (ADR 018).
export { type VehicleType, vehicleTypeLabels, vehicleTypes };

export const MIN_VEHICLE_YEAR = 1950;
export const MAX_VEHICLE_YEAR = 2030;
/** A customer's garage holds at most this many vehicles (also the most a merge may send). */
export const GARAGE_CAPACITY = 20;

const idSchema = z.string();
/** Ids in query strings are checked like path ids: a malformed one is 400, an unknown one names nothing. */
const queryIdSchema = z.guid({ error: 'Provide A Valid Id' });
/** Ids in bodies name a record: one that names nothing, malformed or not, is answered 404 (ADR 006). */
const bodyIdSchema = (message: string) => z.string().trim().min(1, message).max(64);

const yearSchema = z
  .number({ error: 'Year Must Be A Whole Number' })
  .int('Year Must Be A Whole Number')
  .min(MIN_VEHICLE_YEAR, `Year Must Be ${MIN_VEHICLE_YEAR} Or Later`)
  .max(MAX_VEHICLE_YEAR, `Year Must Be ${MAX_VEHICLE_YEAR} Or Earlier`);
const queryYearSchema = z.coerce.number().int().min(MIN_VEHICLE_YEAR).max(MAX_VEHICLE_YEAR);

const variantSchema = z.string().trim().max(40, 'Variant Must Be 40 Characters Or Fewer');

/** One vehicle: `variant` is null for the base model; `label` is how the shop names it ("2019 Yamaha YZ250F"). */
export const vehicleSchema = z.object({
  id: idSchema,
  type: z.enum(vehicleTypes),
  makeId: idSchema,
  make: z.string(),
  modelId: idSchema,
  model: z.string(),
  year: z.number().int(),
  variant: z.string().nullable(),
  label: z.string().describe('"2019 Yamaha YZ250F", with the variant after the model when there is one'),
});
export type Vehicle = z.infer<typeof vehicleSchema>;

export const vehicleMakeSchema = z.object({ id: idSchema, name: z.string() });
export type VehicleMake = z.infer<typeof vehicleMakeSchema>;

export const vehicleModelSchema = z.object({
  id: idSchema,
  makeId: idSchema,
  make: z.string(),
  name: z.string(),
  type: z.enum(vehicleTypes),
});
export type VehicleModel = z.infer<typeof vehicleModelSchema>;

// ---- The selector: Type → Year → Make → Model → Variant. With a narrowing parameter each list offers only what
// ---- has at least one vehicle; without any it lists everything (the admin pickers).

/** `GET /api/vehicle/years?type=` → years, newest first. */
export const vehicleYearsQuerySchema = z.strictObject({
  type: z.enum(vehicleTypes).optional(),
  makeId: queryIdSchema.optional(),
  modelId: queryIdSchema.optional(),
});
export type VehicleYearsQuery = z.infer<typeof vehicleYearsQuerySchema>;

/** `GET /api/vehicle/makes?type=&year=` → makes by name. */
export const vehicleMakesQuerySchema = z.strictObject({
  type: z.enum(vehicleTypes).optional(),
  year: queryYearSchema.optional(),
});
export type VehicleMakesQuery = z.infer<typeof vehicleMakesQuerySchema>;

/** `GET /api/vehicle/models?makeId=&type=&year=` → models by name. */
export const vehicleModelsQuerySchema = z.strictObject({
  makeId: queryIdSchema.optional(),
  type: z.enum(vehicleTypes).optional(),
  year: queryYearSchema.optional(),
});
export type VehicleModelsQuery = z.infer<typeof vehicleModelsQuerySchema>;

/**
 * `GET /api/vehicle?modelId=&year=` → vehicles (the selector's last step: the variants of one model year; also the
 * admin list). Ordered make, model, year (newest first), variant; paged, `X-Total-Count` has the total.
 */
export const vehicleListQuerySchema = z.strictObject({
  type: z.enum(vehicleTypes).optional(),
  makeId: queryIdSchema.optional(),
  modelId: queryIdSchema.optional(),
  year: queryYearSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
});
export type VehicleListQuery = z.infer<typeof vehicleListQuerySchema>;

// ---- Admin: makes, models, vehicles.

const makeNameSchema = z
  .string({ error: 'Make Is Required' })
  .trim()
  .min(1, 'Make Is Required')
  .max(40, 'Make Must Be 40 Characters Or Fewer');
const modelNameSchema = z
  .string({ error: 'Model Is Required' })
  .trim()
  .min(1, 'Model Is Required')
  .max(60, 'Model Must Be 60 Characters Or Fewer');
const vehicleTypeInputSchema = z.enum(vehicleTypes, { error: 'Choose A Vehicle Type' });

/** `POST /api/vehicle/make` and `PATCH /api/vehicle/make/{id}` (admin). */
export const vehicleMakeInputSchema = z.strictObject({ name: makeNameSchema });
export type VehicleMakeInput = z.infer<typeof vehicleMakeInputSchema>;

/** `POST /api/vehicle/model` (admin). */
export const vehicleModelInputSchema = z.strictObject({
  makeId: bodyIdSchema('Choose A Make'),
  name: modelNameSchema,
  type: vehicleTypeInputSchema,
});
export type VehicleModelInput = z.infer<typeof vehicleModelInputSchema>;

/** `PATCH /api/vehicle/model/{id}` (admin): rename or retype. */
export const vehicleModelPatchSchema = z.strictObject({
  name: modelNameSchema.optional(),
  type: vehicleTypeInputSchema.optional(),
});
export type VehicleModelPatch = z.infer<typeof vehicleModelPatchSchema>;

/**
 * `POST /api/vehicle` (admin): one vehicle per year of the range, for one variant (none = the base model). Years
 * that already exist are kept; the answer is every vehicle of the range.
 */
export const vehicleInputSchema = z
  .strictObject({
    modelId: bodyIdSchema('Choose A Model'),
    yearFrom: yearSchema,
    yearTo: yearSchema,
    variant: variantSchema.nullable().optional(),
  })
  .refine((v) => v.yearFrom <= v.yearTo, { message: 'Year From Must Not Be After Year To', path: ['yearTo'] })
  .refine((v) => v.yearTo - v.yearFrom < 50, { message: 'Add At Most 50 Years At Once', path: ['yearTo'] });
export type VehicleInput = z.infer<typeof vehicleInputSchema>;

// ---- My Garage (signed in; a visitor's garage lives in the browser with the same shape minus ids).

export const garageEntrySchema = z.object({
  id: idSchema.describe('The garage entry (not the vehicle)'),
  vehicle: vehicleSchema,
  name: z.string().nullable().describe('The nickname the owner gave it, e.g. "Race bike"'),
  current: z.boolean(),
  addedAt: z.string(),
});
export type GarageEntry = z.infer<typeof garageEntrySchema>;

/** Every garage call answers with the whole garage, oldest entry first. */
export const garageSchema = z.object({
  vehicles: z.array(garageEntrySchema),
  currentId: idSchema.nullable().describe('The garage entry of the current vehicle, if one is chosen'),
});
export type Garage = z.infer<typeof garageSchema>;

const garageNameSchema = z.string().trim().max(40, 'Name Must Be 40 Characters Or Fewer');

/** `POST /api/garage`: add a vehicle (and make it the current one unless `current: false`). */
export const garageAddSchema = z.strictObject({
  vehicleId: bodyIdSchema('Choose A Vehicle'),
  name: garageNameSchema.nullable().optional(),
  current: z.boolean().optional(),
});
export type GarageAdd = z.infer<typeof garageAddSchema>;

/** `PATCH /api/garage/{id}`: rename; null or "" clears the name. */
export const garagePatchSchema = z.strictObject({ name: garageNameSchema.nullable() });
export type GaragePatch = z.infer<typeof garagePatchSchema>;

/** `PUT /api/garage/current`: choose the current vehicle by garage entry id, or null to clear it. */
export const garageCurrentSchema = z.strictObject({ id: bodyIdSchema('Choose A Vehicle').nullable() });
export type GarageCurrent = z.infer<typeof garageCurrentSchema>;

/**
 * `POST /api/garage/merge`: the visitor's browser garage, sent once after sign-in. Vehicles already in the account's
 * garage keep their server name; unknown vehicle ids are skipped (the browser may hold a vehicle since removed);
 * the browser's current vehicle becomes the current one. At most GARAGE_CAPACITY vehicles end up in the garage.
 */
export const garageMergeSchema = z.strictObject({
  vehicles: z
    .array(
      z.strictObject({ vehicleId: bodyIdSchema('Choose A Vehicle'), name: garageNameSchema.nullable().optional() }),
    )
    .max(GARAGE_CAPACITY, `A Garage Holds At Most ${GARAGE_CAPACITY} Vehicles`),
  currentVehicleId: bodyIdSchema('Choose A Vehicle').nullable().optional(),
});
export type GarageMerge = z.infer<typeof garageMergeSchema>;

// ---- Fitment of a part.

export const fitStatuses = ['fits', 'universal', 'doesNotFit'] as const;
export type FitStatus = (typeof fitStatuses)[number];

/** One range of a part's fitment. `variant` null: every variant of those model years. */
export const fitmentRangeSchema = z.object({
  yearFrom: z.number().int(),
  yearTo: z.number().int(),
  variant: z.string().nullable(),
});

/** A part's fitment grouped by make and model (make, model, then years in order). */
export const fitmentGroupSchema = z.object({
  makeId: idSchema,
  make: z.string(),
  modelId: idSchema,
  model: z.string(),
  type: z.enum(vehicleTypes),
  ranges: z.array(fitmentRangeSchema),
});
export type FitmentGroup = z.infer<typeof fitmentGroupSchema>;

/** One fitment row of the admin part form: model + year range (+ variant). */
export const fitmentRowInputSchema = z
  .strictObject({
    modelId: bodyIdSchema('Choose A Model'),
    yearFrom: yearSchema,
    yearTo: yearSchema,
    variant: variantSchema.nullable().optional(),
  })
  .refine((row) => row.yearFrom <= row.yearTo, { message: 'Year From Must Not Be After Year To', path: ['yearTo'] });
export type FitmentRowInput = z.infer<typeof fitmentRowInputSchema>;

export const MAX_FITMENT_ROWS = 200;
export const fitmentRowsInputSchema = z
  .array(fitmentRowInputSchema)
  .max(MAX_FITMENT_ROWS, `A Part Can Have At Most ${MAX_FITMENT_ROWS} Fitment Rows`);

// ---- Brands and categories.

export const slugSchema = z
  .string()
  .trim()
  .min(1)
  .max(60)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Provide A Valid Slug');

export const brandSchema = z.object({ slug: z.string(), name: z.string() });
export type Brand = z.infer<typeof brandSchema>;

/** `GET /api/category`: the tree, roots in order, each with its subcategories (the tree has two levels). */
export const categoryNodeSchema = z.object({
  slug: z.string(),
  name: z.string(),
  children: z.array(z.object({ slug: z.string(), name: z.string() })),
});
export type CategoryNode = z.infer<typeof categoryNodeSchema>;

/** The category as a part carries it: `path` is the names from the root ("Brakes", "Pads"). */
export const partCategorySchema = z.object({ slug: z.string(), name: z.string(), path: z.array(z.string()) });

// ---- Facets of the parts list: `GET /api/part/facets` takes the list's filters.

export const facetCountSchema = z.object({
  slug: z.string(),
  name: z.string(),
  count: z.number().int(),
});

/**
 * Each facet counts the parts matching every OTHER filter (so choosing a brand does not hide the other brands).
 * `total` is the count of parts matching every filter: the list's `X-Total-Count`.
 */
export const partFacetsSchema = z.object({
  total: z.number().int(),
  categories: z
    .array(facetCountSchema.extend({ parentSlug: z.string().nullable() }))
    .describe('Every category, tree order; a count includes its subcategories'),
  brands: z.array(facetCountSchema).describe('Brands with at least one part, by name'),
  price: z.object({ min: z.number().nullable(), max: z.number().nullable() }).describe('Dollars'),
  inStock: z.number().int().describe('Parts in stock'),
  fits: z.number().int().nullable().describe('With `vehicle`: parts that fit it (universal included); else null'),
});
export type PartFacets = z.infer<typeof partFacetsSchema>;
