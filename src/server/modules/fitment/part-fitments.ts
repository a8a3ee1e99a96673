import type { AnyColumn, SQL } from 'drizzle-orm';
import { isUuid } from '../../../shared/schemas/common.ts';
import type { FitmentGroup, FitmentRowInput } from '../../../shared/schemas/fitment.ts';
import type { Transaction } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import type { PartFitmentPort } from '../catalog/part-fitment-port.ts';
import type { KnownVehicles } from './known-vehicles.ts';
import type { FitmentRow, NewFitmentRow, PartFitmentRepository } from './part-fitment-repository.ts';

export const MODEL_NOT_FOUND = 'This vehicle model does not exist.';

/** Rows of one part → groups per make and model (rows arrive ordered by make, model, years). */
export function groupFitment(rows: FitmentRow[]): FitmentGroup[] {
  const groups: FitmentGroup[] = [];
  for (const row of rows) {
    let group = groups.at(-1);
    if (group?.modelId !== row.modelId) {
      group = {
        makeId: row.makeId,
        make: row.make,
        modelId: row.modelId,
        model: row.model,
        type: row.type,
        ranges: [],
      };
      groups.push(group);
    }
    group.ranges.push({ yearFrom: row.yearFrom, yearTo: row.yearTo, variant: row.variant });
  }
  return groups;
}

/** Same model, same variant, and the same or overlapping years are one row; a blank variant means every variant. */
function normalizeRows(rows: FitmentRowInput[]): NewFitmentRow[] {
  const byKey = new Map<string, NewFitmentRow[]>();
  for (const row of rows) {
    const variant = row.variant?.trim() ? row.variant.trim() : null;
    const key = `${row.modelId}\u0000${variant ?? ''}`;
    const list = byKey.get(key) ?? [];
    list.push({ modelId: row.modelId, yearFrom: row.yearFrom, yearTo: row.yearTo, variant });
    byKey.set(key, list);
  }
  const merged: NewFitmentRow[] = [];
  for (const list of byKey.values()) {
    list.sort((a, b) => a.yearFrom - b.yearFrom);
    for (const row of list) {
      const last = merged.at(-1);
      if (last && last.modelId === row.modelId && last.variant === row.variant && row.yearFrom <= last.yearTo + 1) {
        last.yearTo = Math.max(last.yearTo, row.yearTo);
      } else {
        merged.push({ ...row });
      }
    }
  }
  return merged;
}

/** The fitment module as the catalogue's `PartFitmentPort`. */
export class PartFitments implements PartFitmentPort {
  readonly #rows: PartFitmentRepository;
  readonly #known: KnownVehicles;

  constructor(rows: PartFitmentRepository, known: KnownVehicles) {
    this.#rows = rows;
    this.#known = known;
  }

  partIdsFitting(vehicleId: string): SQL {
    return this.#rows.partIdsFitting(vehicleId);
  }

  hasFitment(partId: AnyColumn): SQL {
    return this.#rows.hasFitment(partId);
  }

  modelsNamedBy(phrase: SQL, oneWord: SQL, prefix: boolean): SQL {
    return this.#rows.modelsNamedBy(phrase, oneWord, prefix);
  }

  vehicleNames(): SQL {
    return this.#rows.vehicleNames();
  }

  modelOfVehicle(vehicleId: string): SQL {
    return this.#rows.modelOfVehicle(vehicleId);
  }

  vehicleNamesLike(text: string, limit: number): SQL {
    return this.#rows.vehicleNamesLike(text, limit);
  }

  async vehicleExists(vehicleId: string): Promise<boolean> {
    if (this.#known.has(vehicleId)) return true;
    const exists = await this.#rows.vehicleExists(vehicleId);
    if (exists) this.#known.remember(vehicleId);
    return exists;
  }

  async fitmentOf(partId: string): Promise<FitmentGroup[]> {
    return groupFitment(await this.#rows.ofPart(partId));
  }

  async replaceFitment(tx: Transaction, partId: string, rows: FitmentRowInput[]): Promise<void> {
    const normalized = normalizeRows(rows);
    const modelIds = [...new Set(normalized.map((row) => row.modelId))];
    // A model id that is not even a UUID names nothing, like an unknown one (ADR 006: ids in bodies are 404).
    if (!modelIds.every(isUuid)) throw new NotFoundError(MODEL_NOT_FOUND);
    const existing = await this.#rows.existingModels(tx, modelIds);
    if (existing.size !== modelIds.length) throw new NotFoundError(MODEL_NOT_FOUND);
    await this.#rows.replace(tx, partId, normalized);
  }
}
