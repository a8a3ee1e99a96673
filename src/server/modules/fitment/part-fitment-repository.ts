import { type AnyColumn, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { VehicleType } from '../../../shared/schemas/fitment.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { partFitments, vehicleMakes, vehicleModels, vehicles } from '../../db/schema.ts';

export interface FitmentRow {
  makeId: string;
  make: string;
  modelId: string;
  model: string;
  type: VehicleType;
  yearFrom: number;
  yearTo: number;
  variant: string | null;
}

export interface NewFitmentRow {
  modelId: string;
  yearFrom: number;
  yearTo: number;
  variant: string | null;
}

/**
 * Fitment rows (`part_fitments`): a part fits a model over a year range, for one variant or all. Ranges rather than
 * one row per vehicle, so adding a model year later needs no rewrite, and both directions are index reads:
 * `part_fitments_model_idx` (model, years, variant, part) answers "parts that fit V" from the index alone,
 * `part_fitments_part_idx` answers "what does P fit" (ADR 010).
 */
export class PartFitmentRepository {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  /**
   * A subquery of the ids of the parts whose fitment rows match vehicle V (universal parts are the catalogue's
   * column, not rows here). Handed to the catalogue as SQL so "parts that fit V" is one statement (ADR 010).
   */
  partIdsFitting(vehicleId: string): SQL {
    return sql`select ${partFitments.partId} from ${partFitments} inner join ${vehicles} on ${vehicles.modelId} = ${partFitments.modelId} where ${vehicles.id} = ${vehicleId} and ${partFitments.yearFrom} <= ${vehicles.year} and ${partFitments.yearTo} >= ${vehicles.year} and (${partFitments.variant} is null or ${partFitments.variant} = ${vehicles.variant})`;
  }

  /**
   * Search (ADR 030): every model's names as `modelsNamedBy` compares them, to be read by a statement as the CTE
   * `vehicle_names` (computed once per statement rather than once per word): the id, the make's and model's names
   * together, and the model's, make and model's, and make's name in letters and digits alone ("MT-07" → "mt07").
   */
  vehicleNames(): SQL {
    const compact = (text: SQL) => sql`regexp_replace(lower(${text}), '[^[:alnum:]]+', '', 'g')`;
    return sql`select named.id, named_make.name || ' ' || named.name as full_name, ${compact(sql`named.name`)} as model_key, ${compact(sql`named_make.name || named.name`)} as make_model_key, ${compact(sql`named_make.name`)} as make_key from ${vehicleModels} named inner join ${vehicleMakes} named_make on named_make.id = named.make_id`;
  }

  /**
   * Search (ADRs 012, 028): an array expression of the ids of the models a phrase (an SQL text value: one word of a
   * search, or a few words side by side) names, read from the statement's `vehicle_names` (`vehicleNames`). By
   * letters and digits alone, so "mt07", "MT 07" and "mt-07" all name the MT-07: the phrase equals the model's name,
   * or its make's and model's ("yamaha mt07"), or its make's (every Yamaha model for "yamaha"). A single word
   * (`oneWord`, an SQL boolean) also as a whole word with typos tolerated (strict trigram word similarity ≥ 0.6:
   * "yamah" names Yamaha, "yz250" names YZ250F). With `prefix` (a phrase still being typed) also the start of a name.
   */
  modelsNamedBy(phrase: SQL, oneWord: SQL, prefix: boolean): SQL {
    const similarity = prefix ? sql`word_similarity` : sql`strict_word_similarity`;
    const typed = sql`regexp_replace(lower(${phrase}), '[^[:alnum:]]+', '', 'g')`;
    // While typing, the start of a name, from three letters or digits on ("mt0"; "mt" is too many names yet).
    const started = prefix
      ? sql` or (length(${typed}) >= 3 and (starts_with(names.model_key, ${typed}) or starts_with(names.make_model_key, ${typed})))`
      : sql``;
    return sql`array(select names.id::text from vehicle_names names where ${typed} <> '' and (${typed} in (names.model_key, names.make_model_key, names.make_key)${started} or (${oneWord} and ${similarity}(${phrase}, names.full_name) >= 0.6)))`;
  }

  /** Search: the model of vehicle V, a uuid (null when there is no such vehicle). */
  modelOfVehicle(vehicleId: string): SQL {
    return sql`(select ${vehicles.modelId} from ${vehicles} where ${vehicles.id} = ${vehicleId})`;
  }

  /** Search: make and model names most like the text (`name`, `score`), best first, for "Did you mean …?". */
  vehicleNamesLike(text: string, limit: number): SQL {
    return sql`(select name, similarity(${text}, name) as score from (select name from ${vehicleMakes} union all select name from ${vehicleModels}) vehicle_names order by score desc limit ${limit})`;
  }

  /** True when the part (an id column of the outer query) has at least one fitment row. */
  hasFitment(partId: AnyColumn): SQL {
    return sql`exists (select 1 from ${partFitments} where ${partFitments.partId} = ${partId})`;
  }

  /** Every row of a part, make, model and years in order. */
  async ofPart(partId: string): Promise<FitmentRow[]> {
    return this.#db
      .select({
        makeId: vehicleMakes.id,
        make: vehicleMakes.name,
        modelId: vehicleModels.id,
        model: vehicleModels.name,
        type: vehicleModels.type,
        yearFrom: partFitments.yearFrom,
        yearTo: partFitments.yearTo,
        variant: partFitments.variant,
      })
      .from(partFitments)
      .innerJoin(vehicleModels, eq(vehicleModels.id, partFitments.modelId))
      .innerJoin(vehicleMakes, eq(vehicleMakes.id, vehicleModels.makeId))
      .where(eq(partFitments.partId, partId))
      .orderBy(
        asc(vehicleMakes.name),
        asc(vehicleModels.name),
        asc(partFitments.yearFrom),
        asc(partFitments.yearTo),
        sql`${partFitments.variant} asc nulls first`,
      );
  }

  /** Which of these models exist (ids already checked as UUIDs). */
  async existingModels(tx: Transaction, modelIds: string[]): Promise<Set<string>> {
    if (modelIds.length === 0) return new Set();
    const rows = await tx
      .select({ id: vehicleModels.id })
      .from(vehicleModels)
      .where(inArray(vehicleModels.id, modelIds))
      // Held until the part is saved: an admin deleting the model meanwhile waits, then finds it in use.
      .for('key share');
    return new Set(rows.map((row) => row.id));
  }

  /** The part's rows become exactly these, in the caller's transaction. */
  async replace(tx: Transaction, partId: string, rows: NewFitmentRow[]): Promise<void> {
    await tx.delete(partFitments).where(eq(partFitments.partId, partId));
    if (rows.length > 0) await tx.insert(partFitments).values(rows.map((row) => ({ ...row, partId })));
  }

  /** A `?vehicle=` that names nothing is answered 404 rather than with an empty list. */
  async vehicleExists(vehicleId: string): Promise<boolean> {
    const [row] = await this.#db.select({ id: vehicles.id }).from(vehicles).where(eq(vehicles.id, vehicleId)).limit(1);
    return row !== undefined;
  }
}
