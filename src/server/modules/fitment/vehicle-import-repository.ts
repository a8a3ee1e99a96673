import { inArray, sql } from 'drizzle-orm';
import type { ImportError } from '../../../shared/schemas/catalog-transfer.ts';
import type { VehicleType } from '../../../shared/schemas/fitment.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { vehicleMakes, vehicleModels, vehicles } from '../../db/schema.ts';
import type { VehicleCsvRow } from './vehicle-csv.ts';

export interface VehicleImportOutcome {
  makesAdded: number;
  modelsAdded: number;
  vehiclesAdded: number;
  vehiclesExisting: number;
  /** Rows that contradict the database or an earlier row (a model's type); when any, nothing was written. */
  errors: ImportError[];
}

/** Rows per INSERT: 3 parameters each, well under PostgreSQL's 65,535. */
const INSERT_CHUNK = 5_000;

/** Thrown to roll a transaction back with its outcome: a dry run, or a file whose rows contradict the database. */
class RolledBack extends Error {
  readonly outcome: VehicleImportOutcome;
  constructor(outcome: VehicleImportOutcome) {
    super('rolled back');
    this.outcome = outcome;
  }
}

const lower = (name: string) => name.toLowerCase();
const modelKeyOf = (makeId: string, model: string) => `${makeId}\u0000${lower(model)}`;

/**
 * The fitment module's bulk write of makes, models and model years from a CSV file: all of a file in one
 * transaction, or nothing. Names match as the unique indexes do (case aside); what exists is kept, so the same file
 * imported twice adds nothing the second time. A dry run runs the very same statements and rolls them back, so
 * its counts are the real import's.
 */
export class VehicleImportRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  async importRows(rows: readonly VehicleCsvRow[], dryRun: boolean): Promise<VehicleImportOutcome> {
    if (rows.length === 0) return { makesAdded: 0, modelsAdded: 0, vehiclesAdded: 0, vehiclesExisting: 0, errors: [] };
    try {
      return await this.#db.transaction(async (tx) => {
        const outcome = await this.#write(tx, rows);
        if (dryRun || outcome.errors.length > 0) throw new RolledBack(outcome);
        return outcome;
      });
    } catch (error) {
      if (error instanceof RolledBack) return error.outcome;
      throw error;
    }
  }

  async #write(tx: Transaction, rows: readonly VehicleCsvRow[]): Promise<VehicleImportOutcome> {
    // Makes: the file's first spelling of a new one.
    const makeNames = new Map<string, string>();
    for (const row of rows) if (!makeNames.has(lower(row.make))) makeNames.set(lower(row.make), row.make);
    const addedMakes = await tx
      .insert(vehicleMakes)
      .values([...makeNames.values()].map((name) => ({ name })))
      .onConflictDoNothing()
      .returning({ id: vehicleMakes.id });
    const makeIds = new Map(
      (
        await tx
          .select({ id: vehicleMakes.id, name: vehicleMakes.name })
          .from(vehicleMakes)
          .where(inArray(sql`lower(${vehicleMakes.name})`, [...makeNames.keys()]))
      ).map((make) => [lower(make.name), make.id]),
    );

    // Models: one that exists keeps its type (a row may repeat it); a new one needs one, the same on every row.
    const readModels = async () =>
      new Map(
        (
          await tx
            .select({
              id: vehicleModels.id,
              makeId: vehicleModels.makeId,
              name: vehicleModels.name,
              type: vehicleModels.type,
            })
            .from(vehicleModels)
            .where(inArray(vehicleModels.makeId, [...makeIds.values()]))
        ).map((model) => [modelKeyOf(model.makeId, model.name), model]),
      );
    const existing = await readModels();
    const errors: ImportError[] = [];
    const newModels = new Map<string, { makeId: string; name: string; type: VehicleType | null; line: number }>();
    for (const row of rows) {
      const makeId = makeIds.get(lower(row.make)) ?? '';
      const key = modelKeyOf(makeId, row.model);
      const model = existing.get(key);
      if (model) {
        if (row.type && row.type !== model.type) {
          errors.push({
            line: row.line,
            column: 'type',
            message: `${row.make} ${row.model} Is A ${model.type}, Not A ${row.type}`,
          });
        }
        continue;
      }
      const planned = newModels.get(key);
      if (!planned) {
        newModels.set(key, { makeId, name: row.model, type: row.type, line: row.line });
      } else if (row.type && planned.type && row.type !== planned.type) {
        errors.push({
          line: row.line,
          column: 'type',
          message: `Line ${planned.line} Makes ${row.model} A ${planned.type}`,
        });
      } else if (row.type && !planned.type) {
        planned.type = row.type;
      }
    }
    for (const model of newModels.values()) {
      if (!model.type) {
        errors.push({ line: model.line, column: 'type', message: `Type Is Required For A New Model (${model.name})` });
      }
    }
    if (errors.length > 0) {
      errors.sort((a, b) => a.line - b.line);
      return { makesAdded: 0, modelsAdded: 0, vehiclesAdded: 0, vehiclesExisting: 0, errors };
    }
    const addedModels =
      newModels.size === 0
        ? []
        : await tx
            .insert(vehicleModels)
            .values(
              [...newModels.values()].map(({ makeId, name, type }) => ({ makeId, name, type: type as VehicleType })),
            )
            .onConflictDoNothing()
            .returning({ id: vehicleModels.id });
    const models = await readModels();

    // Model years: one vehicle per year and variant; those that exist are kept.
    const wanted = new Map<string, { modelId: string; year: number; variant: string }>();
    for (const row of rows) {
      const modelId = models.get(modelKeyOf(makeIds.get(lower(row.make)) ?? '', row.model))?.id;
      if (!modelId) throw new Error(`model not written: ${row.make} ${row.model}`);
      for (let year = row.yearFrom; year <= row.yearTo; year += 1) {
        wanted.set(`${modelId}\u0000${year}\u0000${row.variant}`, { modelId, year, variant: row.variant });
      }
    }
    const values = [...wanted.values()];
    let vehiclesAdded = 0;
    for (let at = 0; at < values.length; at += INSERT_CHUNK) {
      const added = await tx
        .insert(vehicles)
        .values(values.slice(at, at + INSERT_CHUNK))
        .onConflictDoNothing()
        .returning({ id: vehicles.id });
      vehiclesAdded += added.length;
    }
    return {
      makesAdded: addedMakes.length,
      modelsAdded: addedModels.length,
      vehiclesAdded,
      vehiclesExisting: values.length - vehiclesAdded,
      errors: [],
    };
  }
}
