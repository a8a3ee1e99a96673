import { CsvError, parse } from 'csv-parse/sync';
import {
  type ImportError,
  requiredVehicleCsvColumns,
  VEHICLE_IMPORT_MAX_ROWS,
  type VehicleCsvColumn,
  vehicleCsvColumns,
} from '../../../shared/schemas/catalog-transfer.ts';
import { MAX_VEHICLE_YEAR, MIN_VEHICLE_YEAR, type VehicleType, vehicleTypes } from '../../../shared/schemas/fitment.ts';
import { detectDelimiter } from '../../csv-delimiter.ts';
import { InvalidError } from '../../errors.ts';

/** One checked row of a vehicle file: a model's years, for one variant ('' = the base model). */
export interface VehicleCsvRow {
  line: number;
  make: string;
  model: string;
  /** Null: the file leaves it to the model that exists. */
  type: VehicleType | null;
  yearFrom: number;
  yearTo: number;
  variant: string;
}

/** The admin form's limits (`src/shared/schemas/fitment.ts`), with its messages. */
const LIMITS = { make: 40, model: 60, variant: 40 } as const;
const LABELS = { make: 'Make', model: 'Model', variant: 'Variant' } as const;
const MAX_YEARS_AT_ONCE = 50;
const YEARS = /^(\d{4})(?:\s*-\s*(\d{4}))?$/;

/**
 * A vehicle CSV → its rows and every row error (line and column), or a 400 for a file that is not one: not UTF-8,
 * not CSV, a bad header, no rows, too many. The delimiter is the file's own (comma, semicolon or tab).
 */
export function readVehicleCsv(body: Buffer): { rows: VehicleCsvRow[]; errors: ImportError[]; total: number } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new InvalidError('The file is not UTF-8 text. Save it as "CSV UTF-8" and upload it again.');
  }
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      delimiter: detectDelimiter(text),
      info: true,
    }) as unknown as typeof records;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = (error as CsvError & { lines?: number }).lines ?? 0;
    throw new InvalidError(`The file is not valid CSV (line ${line}): check its quotes.`, [
      { line, column: null, message: 'Not valid CSV' },
    ]);
  }
  const [head, ...rest] = records;
  if (!head) throw new InvalidError('The file is empty: it needs a header row and vehicle rows.');
  const columns = readHeader(head.record);
  if (rest.length === 0) throw new InvalidError('The file has a header row but no vehicles.');
  if (rest.length > VEHICLE_IMPORT_MAX_ROWS) {
    throw new InvalidError(`The file has more than ${VEHICLE_IMPORT_MAX_ROWS} rows: split it into smaller files.`);
  }
  const rows: VehicleCsvRow[] = [];
  const errors: ImportError[] = [];
  for (const { record, info } of rest) {
    const result = readRow(record, info.lines, columns);
    if (result.row) rows.push(result.row);
    else errors.push(...result.errors);
  }
  return { rows, errors, total: rest.length };
}

function readHeader(cells: string[]): (VehicleCsvColumn | null)[] {
  const problems: ImportError[] = [];
  const seen = new Set<string>();
  const columns = cells.map((raw) => {
    const name = raw.trim().toLowerCase();
    if (!(vehicleCsvColumns as readonly string[]).includes(name)) {
      problems.push({ line: 1, column: raw, message: `Unknown column "${raw.slice(0, 40)}"` });
      return null;
    }
    if (seen.has(name)) problems.push({ line: 1, column: name, message: `Column "${name}" appears twice` });
    seen.add(name);
    return name as VehicleCsvColumn;
  });
  for (const required of requiredVehicleCsvColumns) {
    if (!seen.has(required)) problems.push({ line: 1, column: required, message: `Column "${required}" is missing` });
  }
  const [first] = problems;
  if (first) {
    throw new InvalidError(
      `The header row is not valid: ${first.message}. Columns: ${vehicleCsvColumns.join(', ')}.`,
      problems,
    );
  }
  return columns;
}

function readType(text: string): VehicleType | null | undefined {
  if (text === '') return null;
  const name = text.toLowerCase();
  return (vehicleTypes as readonly string[]).includes(name) ? (name as VehicleType) : undefined;
}

function readRow(
  cells: string[],
  line: number,
  columns: readonly (VehicleCsvColumn | null)[],
): { row: VehicleCsvRow; errors?: never } | { row?: never; errors: ImportError[] } {
  const errors: ImportError[] = [];
  const fail = (column: VehicleCsvColumn | null, message: string) => errors.push({ line, column, message });
  if (cells.length !== columns.length) {
    fail(null, `Expected ${columns.length} cells, found ${cells.length}`);
    return { errors };
  }
  const cell: Partial<Record<VehicleCsvColumn, string>> = {};
  columns.forEach((column, index) => {
    if (column) cell[column] = (cells[index] ?? '').trim();
  });
  for (const column of ['make', 'model', 'variant'] as const) {
    const value = cell[column] ?? '';
    if (value.includes('\u0000')) fail(column, 'Text cannot contain a NUL character');
    else if (column !== 'variant' && value === '') fail(column, `${LABELS[column]} Is Required`);
    else if (value.length > LIMITS[column]) {
      fail(column, `${LABELS[column]} Must Be ${LIMITS[column]} Characters Or Fewer`);
    }
  }
  const type = readType(cell.type ?? '');
  if (type === undefined) fail('type', `Type Must Be One Of ${vehicleTypes.join(', ')}`);
  const match = YEARS.exec(cell.years ?? '');
  const yearFrom = Number(match?.[1]);
  const yearTo = Number(match?.[2] ?? match?.[1]);
  if (!match || yearFrom > yearTo) fail('years', 'Years Must Be Like 2019 Or 2019-2023');
  else if (yearFrom < MIN_VEHICLE_YEAR || yearTo > MAX_VEHICLE_YEAR) {
    fail('years', `Years Must Be Between ${MIN_VEHICLE_YEAR} And ${MAX_VEHICLE_YEAR}`);
  } else if (yearTo - yearFrom >= MAX_YEARS_AT_ONCE) fail('years', `Add At Most ${MAX_YEARS_AT_ONCE} Years At Once`);
  if (errors.length > 0 || type === undefined) return { errors };
  return {
    row: {
      line,
      make: cell.make ?? '',
      model: cell.model ?? '',
      type,
      yearFrom,
      yearTo,
      variant: cell.variant ?? '',
    },
  };
}
