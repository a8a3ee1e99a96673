import { z } from 'zod';
import { type FitmentGroup, fitmentRowInputSchema, fitmentRowsInputSchema } from '../../../shared/schemas/fitment.ts';
import { type PartDetails, partInputSchema } from '../../../shared/schemas/parts.ts';
import { blankNumber } from '../../lib/form.ts';

/*
 * The product form's schema: the shared `partInputSchema`, with the brand, part number, category and fitment fields
 * as a form holds them. Text boxes hold strings, so an empty brand, MPN or category is sent as null (cleared), OEM
 * numbers are typed one per line or comma-separated, and each fitment row also remembers its make (the picker's first
 * step; the API names only the model). Every value still ends up checked by the shared schemas, so a field's message
 * is the server's.
 */

const { brand, mpn, category, oemNumbers } = partInputSchema.shape;

/** An empty box means none. Typed as its target's input, so `pipe` accepts it. */
const blankToNull = <T extends string | null | undefined>(text: string): T => (text.trim() || null) as T;

/** A row as the API takes it, plus the make the row's picker starts from; a blank variant is "every variant". */
const fitmentRowFormSchema = fitmentRowInputSchema
  .safeExtend({ makeId: z.string().min(1, 'Choose A Make'), variant: z.string() })
  .transform(
    ({ makeId: _make, variant, ...row }): z.input<typeof fitmentRowInputSchema> => ({
      ...row,
      variant: blankToNull(variant),
    }),
  );

export const productFormSchema = partInputSchema.extend({
  brand: z
    .string()
    .transform(blankToNull<z.input<typeof brand>>)
    .pipe(brand),
  mpn: z
    .string()
    .transform(blankToNull<z.input<typeof mpn>>)
    .pipe(mpn),
  category: z
    .string()
    .transform(blankToNull<z.input<typeof category>>)
    .pipe(category),
  oemNumbers: z
    .string()
    .transform(
      (text): z.input<typeof oemNumbers> =>
        text
          .split(/[\n,]+/)
          .map((number) => number.trim())
          .filter(Boolean),
    )
    .pipe(oemNumbers),
  universal: z.boolean(),
  fitment: z.array(fitmentRowFormSchema).pipe(fitmentRowsInputSchema),
});

export type ProductFormValues = z.input<typeof productFormSchema>;
export type FitmentRowValues = ProductFormValues['fitment'][number];

/** One form row per range of the part's fitment groups (the contract's way back from groups to rows). */
export function rowsFromGroups(groups: FitmentGroup[]): FitmentRowValues[] {
  return groups.flatMap((group) =>
    group.ranges.map((range) => ({
      makeId: group.makeId,
      modelId: group.modelId,
      yearFrom: range.yearFrom,
      yearTo: range.yearTo,
      variant: range.variant ?? '',
    })),
  );
}

export const emptyFitmentRow: FitmentRowValues = {
  makeId: '',
  modelId: '',
  yearFrom: blankNumber,
  yearTo: blankNumber,
  variant: '',
};

/** The form's starting values: the part's (editing, with its fitment) or empty (adding). */
export function initialProductValues(part: PartDetails | undefined): ProductFormValues {
  return {
    name: part?.name ?? '',
    desription: part?.desription ?? '',
    // Empty number inputs start (and reset to) blank, not 0: react-hook-form reads '' as NaN, which the schema reports.
    price: part?.price ?? blankNumber,
    availablequantity: part?.availablequantity ?? blankNumber,
    minimunorder: part?.minimunorder ?? blankNumber,
    img: part?.img ?? '',
    brand: part?.brand?.name ?? '',
    mpn: part?.mpn ?? '',
    oemNumbers: part?.oemNumbers.join('\n') ?? '',
    category: part?.category?.slug ?? '',
    universal: part?.universal ?? false,
    fitment: part ? rowsFromGroups(part.fitment) : [],
  };
}
