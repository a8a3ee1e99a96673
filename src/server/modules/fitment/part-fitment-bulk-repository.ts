import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { partFitments, vehicleMakes, vehicleModels } from '../../db/schema.ts';

/** One fitment row of a bulk write: the part's id, a model, a year range, a variant (null: every variant). */
export interface BulkFitmentRow {
  partId: string;
  modelId: string;
  yearFrom: number;
  yearTo: number;
  variant: string | null;
}

/** A fitment row as export writes it: make and model by name. */
export interface NamedFitmentRow {
  partId: string;
  make: string;
  model: string;
  yearFrom: number;
  yearTo: number;
  variant: string | null;
}

/** Rows per INSERT: 5 parameters each, well under PostgreSQL's 65,535. */
const INSERT_CHUNK = 5_000;

/** The key a make and model are looked up by: names as typed, case aside. */
export const modelKey = (make: string, model: string) =>
  `${make.trim().toLowerCase()}\u0000${model.trim().toLowerCase()}`;

/**
 * The fitment module's bulk writes and reads for CSV import and export (ADR 014). Import names vehicles by
 * make and model; it never creates them (a model needs its vehicle type, an admin's decision).
 */
export class PartFitmentBulkRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  /** Every model's id by `modelKey(make, model)`: the vehicle tables are small (thousands of models at most). */
  async modelIds(): Promise<Map<string, string>> {
    const rows = await this.#db
      .select({ id: vehicleModels.id, model: vehicleModels.name, make: vehicleMakes.name })
      .from(vehicleModels)
      .innerJoin(vehicleMakes, eq(vehicleMakes.id, vehicleModels.makeId));
    return new Map(rows.map((row) => [modelKey(row.make, row.model), row.id]));
  }

  /** These parts' fitment rows become exactly `rows`, in the caller's transaction. */
  async replaceForParts(tx: Transaction, partIds: readonly string[], rows: readonly BulkFitmentRow[]): Promise<void> {
    if (partIds.length === 0) return;
    await tx.delete(partFitments).where(inArray(partFitments.partId, [...partIds]));
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      await tx.insert(partFitments).values(rows.slice(start, start + INSERT_CHUNK));
    }
  }

  /** The fitment rows of these parts with make and model names, per part in make, model, year order. */
  async ofParts(partIds: readonly string[]): Promise<NamedFitmentRow[]> {
    if (partIds.length === 0) return [];
    return this.#db
      .select({
        partId: partFitments.partId,
        make: vehicleMakes.name,
        model: vehicleModels.name,
        yearFrom: partFitments.yearFrom,
        yearTo: partFitments.yearTo,
        variant: partFitments.variant,
      })
      .from(partFitments)
      .innerJoin(vehicleModels, eq(vehicleModels.id, partFitments.modelId))
      .innerJoin(vehicleMakes, eq(vehicleMakes.id, vehicleModels.makeId))
      .where(inArray(partFitments.partId, [...partIds]))
      .orderBy(
        asc(partFitments.partId),
        asc(vehicleMakes.name),
        asc(vehicleModels.name),
        asc(partFitments.yearFrom),
        sql`${partFitments.variant} asc nulls first`,
      );
  }
}
