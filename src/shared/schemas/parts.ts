import { z } from 'zod';
import { hasAtMostTwoDecimals } from '../money.ts';
import { imageRefSchema } from './common.ts';

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
  email: z.string().nullable().describe('The admin who added the part'),
  createdAt: z.string(),
});
export type Part = z.infer<typeof partSchema>;

export const partSortValues = ['newest', 'price_asc', 'price_desc', 'name'] as const;
export type PartSort = (typeof partSortValues)[number];

export const partListQuerySchema = z.strictObject({
  q: z.string().trim().max(100).optional(),
  sort: z.enum(partSortValues).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
});
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
});
export type PartInput = z.infer<typeof partInputSchema>;

/** The body of `PATCH /api/part/:id` (admin): any subset of the fields, under the same rules. */
export const partPatchSchema = partInputSchema.omit({ email: true }).partial().strict();
export type PartPatch = z.infer<typeof partPatchSchema>;
