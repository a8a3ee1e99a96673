import { z } from 'zod';
import {
  type ImportError,
  type ProductCsvColumn,
  productCsvColumns,
  requiredProductCsvColumns,
} from '../../../shared/schemas/catalog-transfer.ts';
import { MAX_VEHICLE_YEAR, MIN_VEHICLE_YEAR } from '../../../shared/schemas/fitment.ts';
import { partInputSchema } from '../../../shared/schemas/parts.ts';
import type { ExportPart, ImportPart } from './ports.ts';

/**
 * The product CSV (ADR 014): its header, one row's validation with the part form's own rules and
 * messages, and the same row written back for export. Lists inside a cell: OEM numbers separated by `|`; fitment
 * rows separated by `;`, each `make|model|years|variant` with years `2019` or `2019-2023` and the variant optional.
 */

/** Cells a spreadsheet would run as a formula when they start with one of these (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Export: a cell that would start a formula gets a leading apostrophe, which spreadsheets show as text. */
export function neutralize(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/** Import: the apostrophe export put in front of such a cell is taken off again, so a file round-trips. */
function unneutralize(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

export interface FitmentCell {
  make: string;
  model: string;
  yearFrom: number;
  yearTo: number;
  variant: string | null;
}

/** A checked row, ready to write; `fitment` undefined when the file has no fitment column. */
export interface ImportRow {
  line: number;
  key: string;
  part: ImportPart;
  fitment: FitmentCell[] | undefined;
}

/** The header, checked: which column each index holds. Problems are whole-file refusals, reported with line 1. */
export function readHeader(cells: string[]): { columns: (ProductCsvColumn | null)[]; problems: ImportError[] } {
  const problems: ImportError[] = [];
  const seen = new Set<string>();
  const columns = cells.map((raw) => {
    const name = raw.trim().toLowerCase().replace(/\s+/g, '_');
    if (!(productCsvColumns as readonly string[]).includes(name)) {
      // A header of one long cell holding separators is a file split by something else than , ; or tab.
      const hint = /[,;|\t]/.test(raw) ? ' (separate the columns with commas or semicolons)' : '';
      problems.push({ line: 1, column: raw, message: `Unknown column "${raw.slice(0, 40)}"${hint}` });
      return null;
    }
    if (seen.has(name)) problems.push({ line: 1, column: name, message: `Column "${name}" appears twice` });
    seen.add(name);
    return name as ProductCsvColumn;
  });
  for (const required of requiredProductCsvColumns) {
    if (!seen.has(required)) problems.push({ line: 1, column: required, message: `Column "${required}" is missing` });
  }
  return { columns, problems };
}

const shape = partInputSchema.shape;
const firstMessage = (error: z.ZodError) => error.issues[0]?.message ?? 'Not Valid';
const NUL = '\u0000';

/** The file's optional columns, as the part fields they set on parts that exist. */
export function importedFields(columns: readonly (ProductCsvColumn | null)[]): Set<keyof ImportPart> {
  const fields = new Set<keyof ImportPart>();
  const map: Partial<Record<ProductCsvColumn, keyof ImportPart>> = {
    brand: 'brand',
    oem_numbers: 'oemNumbers',
    category: 'categoryId',
    minimum_order: 'minimumOrder',
    description: 'description',
    image_url: 'img',
    universal: 'universal',
  };
  for (const column of columns) {
    const field = column && map[column];
    if (field) fields.add(field);
  }
  return fields;
}

export interface RowContext {
  columns: readonly (ProductCsvColumn | null)[];
  /** Category ids by lower-case slug and name. */
  categoryIds: ReadonlyMap<string, string>;
  /** Model ids by `modelKey(make, model)`. */
  modelIds: ReadonlyMap<string, string>;
  modelKey: (make: string, model: string) => string;
  normalize: (partNumber: string) => string;
  /** Prices may be written `24,50` (a semicolon-separated file, from a spreadsheet that writes decimals so). */
  decimalComma?: boolean;
}

/** One data row → the part it describes, or every error in it (each with its line and column). */
export function readRow(
  cells: string[],
  line: number,
  context: RowContext,
): { row: ImportRow; errors: [] } | { row: undefined; errors: ImportError[] } {
  const errors: ImportError[] = [];
  const fail = (column: string | null, message: string) => errors.push({ line, column, message });
  if (cells.length !== context.columns.length) {
    fail(null, `Expected ${context.columns.length} cells, found ${cells.length}`);
    return { row: undefined, errors };
  }
  const cell: Partial<Record<ProductCsvColumn, string>> = {};
  context.columns.forEach((column, index) => {
    if (column) cell[column] = unneutralize(cells[index] ?? '').trim();
  });
  for (const [column, value] of Object.entries(cell)) {
    if (value.includes(NUL)) fail(column, 'Text cannot contain a NUL character');
  }
  if (errors.length > 0) return { row: undefined, errors };

  const check = <T>(column: ProductCsvColumn, schema: z.ZodType<T>, value: unknown): T | undefined => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    fail(column, firstMessage(parsed.error));
    return undefined;
  };
  const number = (column: ProductCsvColumn, written: string, label: string, whole: boolean): number | undefined => {
    const text = !whole && context.decimalComma ? written.replace(/^(-?\d+),(\d+)$/, '$1.$2') : written;
    if (!(whole ? /^-?\d+$/ : /^-?\d+(\.\d+)?$/).test(text)) {
      fail(column, whole ? `${label} Must Be A Whole Number` : `${label} Must Be A Number`);
      return undefined;
    }
    return Number(text);
  };

  const mpnText = cell.mpn ?? '';
  if (mpnText === '') fail('mpn', 'Part Number Is Required');
  const mpn = mpnText === '' ? undefined : check('mpn', shape.mpn, mpnText);
  const name = check('name', shape.name, cell.name ?? '');
  const priceNumber = number('price', cell.price ?? '', 'Price', false);
  const price = priceNumber === undefined ? undefined : check('price', shape.price, priceNumber);
  const stockNumber = number('stock', cell.stock ?? '', 'Available Quantity', true);
  const stock = stockNumber === undefined ? undefined : check('stock', shape.availablequantity, stockNumber);
  const part: Partial<ImportPart> = {};
  if (cell.minimum_order !== undefined) {
    const text = cell.minimum_order === '' ? '1' : cell.minimum_order;
    const minimum = number('minimum_order', text, 'Minimum Order', true);
    if (minimum !== undefined) part.minimumOrder = check('minimum_order', shape.minimunorder, minimum);
  }
  if (cell.description !== undefined) part.description = check('description', shape.desription, cell.description);
  if (cell.image_url !== undefined) part.img = check('image_url', shape.img, cell.image_url);
  if (cell.brand !== undefined) {
    part.brand = cell.brand === '' ? null : (check('brand', shape.brand, cell.brand) ?? undefined);
  }
  if (cell.oem_numbers !== undefined) {
    const numbers = cell.oem_numbers
      .split('|')
      .map((n) => n.trim())
      .filter(Boolean);
    part.oemNumbers = check('oem_numbers', shape.oemNumbers, numbers) ?? [];
  }
  if (cell.category !== undefined) {
    if (cell.category === '') part.categoryId = null;
    else {
      const id = context.categoryIds.get(cell.category.toLowerCase());
      if (id) part.categoryId = id;
      else fail('category', `Unknown category "${cell.category.slice(0, 60)}"`);
    }
  }
  if (cell.universal !== undefined) {
    const flag = cell.universal.toLowerCase();
    if (['true', 'yes', '1'].includes(flag)) part.universal = true;
    else if (['false', 'no', '0', ''].includes(flag)) part.universal = false;
    else fail('universal', 'Universal Must Be True Or False');
  }
  const fitment =
    cell.fitment === undefined ? undefined : readFitment(cell.fitment, context, (m) => fail('fitment', m));

  if (errors.length > 0 || mpn == null || name === undefined || price === undefined || stock === undefined) {
    return { row: undefined, errors };
  }
  return {
    row: {
      line,
      key: context.normalize(mpn),
      part: { ...part, mpn, name, priceCents: Math.round(price * 100), availableQuantity: stock },
      fitment,
    },
    errors: [],
  };
}

const yearsPattern = /^(\d{4})(?:\s*-\s*(\d{4}))?$/;
const variantSchema = z.string().max(40, 'Variant Must Be 40 Characters Or Fewer');

/** `make|model|years|variant; …` → rows; each problem reported once, naming the entry. */
function readFitment(text: string, context: RowContext, fail: (message: string) => void): FitmentCell[] {
  const rows: FitmentCell[] = [];
  const entries = text
    .split(';')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length > 500) {
    fail('A Part Can Have At Most 500 Fitment Rows');
    return rows;
  }
  entries.forEach((entry, index) => {
    const at = `Fitment ${index + 1}`;
    const [make = '', model = '', years = '', variant = '', ...extra] = entry.split('|').map((part) => part.trim());
    if (!make || !model || !years || extra.length > 0) {
      fail(`${at}: Write Make|Model|Years|Variant, e.g. Yamaha|YZ250F|2019-2023`);
      return;
    }
    const match = yearsPattern.exec(years);
    const yearFrom = Number(match?.[1]);
    const yearTo = Number(match?.[2] ?? match?.[1]);
    if (!match || yearFrom > yearTo) {
      fail(`${at}: Years Must Be Like 2019 Or 2019-2023`);
      return;
    }
    if (yearFrom < MIN_VEHICLE_YEAR || yearTo > MAX_VEHICLE_YEAR) {
      fail(`${at}: Years Must Be Between ${MIN_VEHICLE_YEAR} And ${MAX_VEHICLE_YEAR}`);
      return;
    }
    const variantCheck = variantSchema.safeParse(variant);
    if (!variantCheck.success) {
      fail(`${at}: ${firstMessage(variantCheck.error)}`);
      return;
    }
    if (!context.modelIds.has(context.modelKey(make, model))) {
      fail(`${at}: No Vehicle Model "${make.slice(0, 40)} ${model.slice(0, 60)}" (add it under Vehicles first)`);
      return;
    }
    rows.push({ make, model, yearFrom, yearTo, variant: variant || null });
  });
  return rows;
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** A part and its fitment as one CSV record, in `productCsvColumns` order, every cell neutralised. */
export function exportRecord(
  part: ExportPart,
  fitment: readonly { make: string; model: string; yearFrom: number; yearTo: number; variant: string | null }[],
): string[] {
  const fitmentCell = fitment
    .map((row) => {
      const years = row.yearFrom === row.yearTo ? `${row.yearFrom}` : `${row.yearFrom}-${row.yearTo}`;
      return [row.make, row.model, years, ...(row.variant ? [row.variant] : [])].join('|');
    })
    .join('; ');
  const cells: Record<ProductCsvColumn, string> = {
    mpn: part.mpn ?? '',
    name: part.name,
    brand: part.brandName ?? '',
    oem_numbers: part.oemNumbers.join('|'),
    category: part.categorySlug ?? '',
    price: dollars(part.priceCents),
    stock: String(part.availableQuantity),
    minimum_order: String(part.minimumOrder),
    description: part.description,
    image_url: part.img,
    universal: part.universal ? 'true' : 'false',
    fitment: fitmentCell,
  };
  return productCsvColumns.map((column) => neutralize(cells[column]));
}
