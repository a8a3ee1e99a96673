import { CATALOG_IMPORT_KEPT_ERRORS, type VehicleImportResult } from '../../../shared/schemas/catalog-transfer.ts';
import { isUuid } from '../../../shared/schemas/common.ts';
import type {
  Vehicle,
  VehicleInput,
  VehicleListQuery,
  VehicleMake,
  VehicleMakesQuery,
  VehicleModel,
  VehicleModelInput,
  VehicleModelPatch,
  VehicleModelsQuery,
  VehicleType,
  VehicleYearsQuery,
} from '../../../shared/schemas/fitment.ts';
import { ConflictError, InvalidError, NotFoundError } from '../../errors.ts';
import type { KnownVehicles } from './known-vehicles.ts';
import { FOREIGN_KEY_VIOLATION, sqlState, UNIQUE_VIOLATION } from './sql-state.ts';
import { readVehicleCsv } from './vehicle-csv.ts';
import type { VehicleImportRepository } from './vehicle-import-repository.ts';
import type { MakeRow, ModelRow, VehicleRepository, VehicleRow } from './vehicle-repository.ts';

export const VEHICLE_NOT_FOUND = 'This vehicle does not exist.';
const MAKE_NOT_FOUND = 'This make does not exist.';
const MODEL_NOT_FOUND = 'This vehicle model does not exist.';
const MAKE_TAKEN = 'This make already exists.';
const MODEL_TAKEN = 'This make already has a model of that name.';

/** "2019 Yamaha YZ250F", and the variant after the model when there is one. */
export function vehicleLabel(row: Pick<VehicleRow, 'year' | 'make' | 'model' | 'variant'>): string {
  return [String(row.year), row.make, row.model, row.variant].filter((part) => part !== '').join(' ');
}

export function toWireVehicle(row: VehicleRow): Vehicle {
  return {
    id: row.id,
    type: row.type,
    makeId: row.makeId,
    make: row.make,
    modelId: row.modelId,
    model: row.model,
    year: row.year,
    variant: row.variant === '' ? null : row.variant,
    label: vehicleLabel(row),
  };
}

const toWireMake = (row: MakeRow): VehicleMake => ({ id: row.id, name: row.name });
const toWireModel = (row: ModelRow): VehicleModel => ({
  id: row.id,
  makeId: row.makeId,
  make: row.make,
  name: row.name,
  type: row.type,
});

/**
 * A write whose constraint failures are answers: a duplicate name is 409; a make or model deleted by another admin
 * between the check and the write is 404.
 */
async function answering<T>(write: () => Promise<T>, messages: { duplicate: string; missing: string }): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const state = sqlState(error);
    if (state === UNIQUE_VIOLATION) throw new ConflictError(messages.duplicate);
    if (state === FOREIGN_KEY_VIOLATION) throw new NotFoundError(messages.missing);
    throw error;
  }
}

/** The vehicle selector (public) and the admin's makes, models and model years. */
export class VehiclesService {
  readonly #vehicles: VehicleRepository;
  /** Shared with the catalogue's port (PartFitments): a deleted vehicle is forgotten there at once. */
  readonly #known: KnownVehicles;
  readonly #imports: VehicleImportRepository;
  constructor(vehicles: VehicleRepository, known: KnownVehicles, imports: VehicleImportRepository) {
    this.#vehicles = vehicles;
    this.#known = known;
    this.#imports = imports;
  }

  types(): Promise<VehicleType[]> {
    return this.#vehicles.types();
  }

  years(query: VehicleYearsQuery): Promise<number[]> {
    return this.#vehicles.years(query);
  }

  async makes(query: VehicleMakesQuery): Promise<VehicleMake[]> {
    return (await this.#vehicles.makes(query)).map(toWireMake);
  }

  async models(query: VehicleModelsQuery): Promise<VehicleModel[]> {
    return (await this.#vehicles.models(query)).map(toWireModel);
  }

  async list(query: VehicleListQuery): Promise<{ items: Vehicle[]; total: number }> {
    const { limit = 100, offset, ...filter } = query;
    const { rows, total } = await this.#vehicles.list(filter, { limit, offset });
    return { items: rows.map(toWireVehicle), total };
  }

  async get(id: string): Promise<Vehicle> {
    const row = await this.#vehicles.find(id);
    if (!row) throw new NotFoundError(VEHICLE_NOT_FOUND);
    return toWireVehicle(row);
  }

  async addMake(name: string): Promise<VehicleMake> {
    const row = await this.#vehicles.insertMake(name);
    if (!row) throw new ConflictError(MAKE_TAKEN);
    return toWireMake(row);
  }

  async renameMake(id: string, name: string): Promise<VehicleMake> {
    const row = await answering(() => this.#vehicles.renameMake(id, name), {
      duplicate: MAKE_TAKEN,
      missing: MAKE_NOT_FOUND,
    });
    if (!row) throw new NotFoundError(MAKE_NOT_FOUND);
    return toWireMake(row);
  }

  async removeMake(id: string): Promise<void> {
    const result = await this.#vehicles.deleteMake(id);
    if (result === 'missing') throw new NotFoundError(MAKE_NOT_FOUND);
    if (result === 'in use') throw new ConflictError('This make still has models.', 'in_use');
  }

  async addModel(input: VehicleModelInput): Promise<VehicleModel> {
    // A make id that is not a UUID names nothing (ADR 006: ids in bodies are 404, never a database error).
    if (!isUuid(input.makeId) || !(await this.#vehicles.findMake(input.makeId))) {
      throw new NotFoundError(MAKE_NOT_FOUND);
    }
    const row = await answering(() => this.#vehicles.insertModel(input), {
      duplicate: MODEL_TAKEN,
      missing: MAKE_NOT_FOUND,
    });
    if (!row) throw new ConflictError(MODEL_TAKEN);
    return toWireModel(row);
  }

  async updateModel(id: string, patch: VehicleModelPatch): Promise<VehicleModel> {
    const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    if (Object.keys(changes).length === 0) throw new InvalidError('Send at least one field to change.');
    const row = await answering(() => this.#vehicles.updateModel(id, changes), {
      duplicate: MODEL_TAKEN,
      missing: MODEL_NOT_FOUND,
    });
    if (!row) throw new NotFoundError(MODEL_NOT_FOUND);
    return toWireModel(row);
  }

  async removeModel(id: string): Promise<void> {
    const result = await this.#vehicles.deleteModel(id);
    if (result === 'missing') throw new NotFoundError(MODEL_NOT_FOUND);
    if (result === 'in use') throw new ConflictError('This model still has vehicles or fitment.', 'in_use');
  }

  /** One vehicle per year of the range (existing ones kept): the answer is every vehicle of the range. */
  async addVehicles(input: VehicleInput): Promise<Vehicle[]> {
    if (!isUuid(input.modelId) || !(await this.#vehicles.findModel(input.modelId))) {
      throw new NotFoundError(MODEL_NOT_FOUND);
    }
    const years = Array.from({ length: input.yearTo - input.yearFrom + 1 }, (_, i) => input.yearFrom + i);
    const rows = await answering(() => this.#vehicles.insertYears(input.modelId, years, input.variant ?? ''), {
      duplicate: MODEL_TAKEN,
      missing: MODEL_NOT_FOUND,
    });
    return rows.map(toWireVehicle);
  }

  /**
   * Makes, models and model years from a CSV file, checked row by row: a dry run reports (every error, or what it
   * would add); otherwise a file with any error is refused whole (400, the errors as details) and a good one is
   * written in one transaction. What exists is kept, so importing a file twice adds nothing the second time.
   */
  async importCsv(body: Buffer, dryRun: boolean): Promise<VehicleImportResult> {
    const { rows, errors, total } = readVehicleCsv(body);
    // The good rows are checked against the database too (a new model's type), so one report lists every error.
    const checked = await this.#imports.importRows(rows, dryRun || errors.length > 0);
    const outcome =
      errors.length > 0
        ? {
            ...{ makesAdded: 0, modelsAdded: 0, vehiclesAdded: 0, vehiclesExisting: 0 },
            errors: [...errors, ...checked.errors].sort((a, b) => a.line - b.line),
          }
        : checked;
    if (!dryRun && outcome.errors.length > 0) {
      const count = new Set(outcome.errors.map((error) => error.line)).size;
      throw new InvalidError(
        `${count} ${count === 1 ? 'row has' : 'rows have'} errors: nothing was imported. Fix them and upload the file again.`,
        outcome.errors.slice(0, CATALOG_IMPORT_KEPT_ERRORS),
      );
    }
    return { dryRun, rows: total, ...outcome, errors: outcome.errors.slice(0, CATALOG_IMPORT_KEPT_ERRORS) };
  }

  async removeVehicle(id: string): Promise<void> {
    const result = await this.#vehicles.deleteVehicle(id);
    if (result === 'deleted') this.#known.forget(id);
    if (result === 'missing') throw new NotFoundError(VEHICLE_NOT_FOUND);
    if (result === 'in use') throw new ConflictError("This vehicle is in a customer's garage.", 'in_use');
  }
}
