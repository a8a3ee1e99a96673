import type { AnyColumn, SQL } from 'drizzle-orm';
import type { FitmentGroup, FitmentRowInput } from '../../../shared/schemas/fitment.ts';
import type { Transaction } from '../../db/client.ts';

/**
 * What the catalogue needs of the fitment module (ADR 006 ports, ADR 010). The two SQL methods hand back pieces of
 * a statement over the fitment module's own tables, so "parts that fit V, page 1, with counts" stays one statement
 * that the database plans as a whole; the catalogue composes them and never names those tables.
 */
export interface PartFitmentPort {
  /** A subquery selecting the ids of parts whose fitment rows match the vehicle (universal parts not included). */
  partIdsFitting(vehicleId: string): SQL;
  /**
   * Search (ADR 030): the body of the CTE `vehicle_names` that `modelsNamedBy` reads, every model's names as it
   * compares them, computed once per statement.
   */
  vehicleNames(): SQL;
  /**
   * Search (ADRs 012, 028): an array expression (text[]) of the ids of the models a phrase (an SQL text value: a
   * word, or a few words side by side) names (the statement has `vehicle_names` as a CTE), by make, model or both, letters and digits alone ("mt07", "MT 07",
   * "yamaha mt-07"); a single word (`oneWord`, an SQL boolean) also with typos tolerated by trigram similarity
   * ("yamah" → Yamaha); with `prefix`, also the start of a name (typing). The vehicle tables are small.
   */
  modelsNamedBy(phrase: SQL, oneWord: SQL, prefix: boolean): SQL;
  /** Search: the model of a vehicle (a uuid expression, null for no such vehicle). */
  modelOfVehicle(vehicleId: string): SQL;
  /** Search: up to `limit` make and model names most like `text`, for "Did you mean …?" (similarity, best first). */
  vehicleNamesLike(text: string, limit: number): SQL;
  /** A condition: the part whose id is this column has at least one fitment row. */
  hasFitment(partId: AnyColumn): SQL;
  vehicleExists(vehicleId: string): Promise<boolean>;
  /** The part's fitment, grouped by make and model, years in order. */
  fitmentOf(partId: string): Promise<FitmentGroup[]>;
  /**
   * The part's fitment rows become exactly these, in the catalogue's transaction. A model that names nothing is
   * `NotFoundError` (the transaction, and so the part's save, is undone).
   */
  replaceFitment(tx: Transaction, partId: string, rows: FitmentRowInput[]): Promise<void>;
}
