import { z } from 'zod';
import { checkCursorQuery, cursorQuery } from '../cursor.ts';
import { hasAtMostTwoDecimals } from '../money.ts';
import { partCursorOrder, partSortValues } from '../part-order.ts';
import { imageRefSchema } from './common.ts';
import {
  brandSchema,
  fitmentGroupSchema,
  fitmentRowsInputSchema,
  fitStatuses,
  partCategorySchema,
  partFacetsSchema,
  slugSchema,
} from './fitment.ts';
import { partPhotosSchema } from './media.ts';

export { type PartSort, partCursorOrder, partSortValues } from '../part-order.ts';

/**
 * A part as it travels on the wire. The spec's spellings (`_id`, `desription`, `minimunorder`,
 * `availablequantity`) are kept here and only here; the server maps them from clear names at one boundary.
 */
export const partSchema = z.object({
  _id: z.string(),
  name: z.string(),
  img: z.string(),
  price: z.number().describe('Dollars per unit'),
  availablequantity: z.number().int().describe('PCS in stock'),
  minimunorder: z.number().int().describe('Smallest order, PCS'),
  desription: z.string(),
  email: z
    .string()
    .nullable()
    .describe('The admin who added the part: shown to admins only, null for everyone else (L2)'),
  createdAt: z.string(),
  // Additive to the spec's fields: what the part is and what it fits.
  brand: brandSchema.nullable(),
  mpn: z.string().nullable().describe("The manufacturer's part number"),
  oemNumbers: z.array(z.string()).describe('OEM cross-reference numbers'),
  category: partCategorySchema.nullable(),
  universal: z.boolean().describe('Fits every vehicle (gloves, gauges)'),
  fit: z
    .enum(fitStatuses)
    .optional()
    .describe('Only when `vehicle` is given: whether the part fits that vehicle (`universal` when it fits everything)'),
});
export type Part = z.infer<typeof partSchema>;

/**
 * `GET /api/part/{id}`: the part and its full fitment, grouped by make and model, and its uploaded
 * photos, the main one first (empty when it has none: `img` is then a link).
 */
export const partDetailsSchema = partSchema.extend({ fitment: z.array(fitmentGroupSchema), photos: partPhotosSchema });
export type PartDetails = z.infer<typeof partDetailsSchema>;

/** `GET /api/part/{id}?vehicle=`: with a vehicle, the part says whether it fits it (`fit`). */
export const partDetailsQuerySchema = z.strictObject({
  vehicle: z.guid({ error: 'Provide A Valid Id' }).optional(),
});

const booleanFlag = z.enum(['true', 'false']);
const dollarsQuery = z.coerce.number().min(0).max(1_000_000);

/**
 * The filters of the parts list, shared by `GET /api/part` and `GET /api/part/facets`. All optional; without any,
 * the list is the spec's. `vehicle` alone marks each part's `fit`; with `fits=true` only parts that fit it
 * (universal included) are listed. `category` includes its subcategories. `fitment=none` (Manage Products): parts
 * that are not universal and have no fitment yet.
 */
const partFilterFields = {
  q: z
    .string()
    .trim()
    .max(100)
    .optional()
    .describe('Search: name, description, brand, category, fitted makes and models, part numbers; typos tolerated'),
  vehicle: z.guid({ error: 'Provide A Valid Id' }).optional(),
  fits: booleanFlag.optional(),
  category: slugSchema.optional(),
  brand: slugSchema.optional(),
  minPrice: dollarsQuery.optional(),
  maxPrice: dollarsQuery.optional(),
  inStock: booleanFlag.optional(),
  fitment: z.enum(['none']).optional(),
};

type PartFilterQuery = {
  vehicle?: string | undefined;
  fits?: string | undefined;
  minPrice?: number;
  maxPrice?: number;
};
const filterRules = <T extends z.ZodType<PartFilterQuery>>(schema: T) =>
  schema
    .refine((query) => query.fits !== 'true' || query.vehicle !== undefined, {
      message: 'Choose A Vehicle To Show Parts That Fit',
      path: ['fits'],
    })
    .refine(
      (query) => query.minPrice === undefined || query.maxPrice === undefined || query.minPrice <= query.maxPrice,
      { message: 'Lowest Price Must Not Be Above Highest Price', path: ['maxPrice'] },
    );

export const partListQuerySchema = filterRules(
  z.strictObject({
    ...partFilterFields,
    sort: z.enum(partSortValues).optional(),
    limit: z.coerce.number().int().min(1).max(100).optional(),
    offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
    after: cursorQuery.optional().describe('The page after this cursor (keyset paging; not with `offset`)'),
    before: cursorQuery.optional().describe('The page before this cursor (the Previous of keyset paging)'),
  }),
).superRefine((query, ctx) => checkCursorQuery(query, partCursorOrder(query), ctx));
/** `GET /api/part/facets`: the same filters, no paging. */
export const partFacetsQuerySchema = filterRules(z.strictObject(partFilterFields));
export type PartFacetsQuery = z.infer<typeof partFacetsQuerySchema>;
export type PartListQuery = z.infer<typeof partListQuerySchema>;

export const productNameMessages = {
  required: 'Product Name Is Required',
  tooLong: 'Product Name Must Be 20 Characters Or Fewer',
} as const;

const quantity = (label: string, min: number) =>
  z
    .number({ error: `${label} Must Be A Whole Number` })
    .int(`${label} Must Be A Whole Number`)
    .min(min, min === 0 ? `${label} Cannot Be Negative` : `${label} Must Be At Least ${min}`)
    .max(1_000_000, `${label} Must Be At Most 1,000,000`);

const partNumberSchema = z
  .string()
  .trim()
  .min(1, 'Part Number Is Required')
  .max(40, 'Part Number Must Be 40 Characters Or Fewer')
  .regex(/[\p{L}\p{N}]/u, 'Part Number Must Contain A Letter Or Digit');

/** The body of `POST /api/part` (admin). `email` is accepted for the spec's sake and ignored: the token says who adds. */
export const partInputSchema = z.strictObject({
  name: z.string().trim().min(1, productNameMessages.required).max(20, productNameMessages.tooLong),
  desription: z.string().trim().max(1000, 'Description Must Be 1000 Characters Or Fewer').optional(),
  price: z
    .number({ error: 'Price Must Be A Number' })
    .positive('Price Must Be More Than 0')
    .max(1_000_000, 'Price Must Be At Most $1,000,000')
    .refine(hasAtMostTwoDecimals, 'Price Can Have At Most 2 Decimals'),
  availablequantity: quantity('Available Quantity', 0),
  minimunorder: quantity('Minimum Order', 1),
  img: imageRefSchema,
  email: z.string().optional(),
  // Additive to the spec's fields. A brand is named: a name the shop does not know yet becomes a new brand.
  brand: z.string().trim().max(40, 'Brand Must Be 40 Characters Or Fewer').nullable().optional(),
  mpn: partNumberSchema.nullable().optional(),
  oemNumbers: z.array(partNumberSchema).max(20, 'A Part Can Have At Most 20 OEM Numbers').optional(),
  category: slugSchema.nullable().optional().describe('A category slug; one that names nothing is 404'),
  universal: z.boolean({ error: 'Universal Must Be True Or False' }).optional(),
  fitment: fitmentRowsInputSchema.optional().describe('Replaces every fitment row of the part'),
});
export type PartInput = z.infer<typeof partInputSchema>;

/** The body of `PATCH /api/part/:id` (admin): any subset of the fields, under the same rules. */
export const partPatchSchema = partInputSchema.omit({ email: true }).partial().strict();
export type PartPatch = z.infer<typeof partPatchSchema>;

/**
 * `GET /api/part/page`: one page of the parts list (the query of `GET /api/part`) with the counts beside its filters,
 * as the parts page shows them: one request, and with a vehicle or a search one read of the matching parts.
 */
export const partListPageSchema = z.object({
  items: z.array(partSchema),
  total: z.number().int().describe("Every part matching the filters (the list's X-Total-Count)"),
  capped: z.boolean().describe('A search with more matches than it ranks (1,000): `total` means "at least"'),
  facets: partFacetsSchema,
  nextCursor: z
    .string()
    .nullable()
    .describe('`after` for the next page; null on the last page, without `limit` and for a search by relevance'),
  prevCursor: z
    .string()
    .nullable()
    .describe('`before` for the previous page; null on the first page and for a search by relevance'),
});
export type PartListPage = z.infer<typeof partListPageSchema>;
