/**
 * Vehicles known to exist, remembered for a few seconds. Every vehicle-filtered parts list and facet count asks
 * whether its vehicle exists before it reads (an unknown one is 404, so a browser forgets a vehicle deleted since it
 * was chosen), and a parts page view makes two such calls: remembering the answer halves the statements of the
 * busiest catalogue page. Only "exists" is remembered, so a new vehicle is found at once; this
 * instance's deletes forget it at once; another instance's delete is seen within TTL_MS, meanwhile the vehicle simply
 * fits nothing.
 */
export class KnownVehicles {
  static readonly TTL_MS = 5_000;
  static readonly MAX_ENTRIES = 10_000;
  readonly #expires = new Map<string, number>();

  has(vehicleId: string): boolean {
    const expires = this.#expires.get(vehicleId);
    if (expires !== undefined && expires > Date.now()) return true;
    this.#expires.delete(vehicleId);
    return false;
  }

  remember(vehicleId: string): void {
    if (this.#expires.size >= KnownVehicles.MAX_ENTRIES) this.#expires.clear();
    this.#expires.set(vehicleId, Date.now() + KnownVehicles.TTL_MS);
  }

  forget(vehicleId: string): void {
    this.#expires.delete(vehicleId);
  }
}
