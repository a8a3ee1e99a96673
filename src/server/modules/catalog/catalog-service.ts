import type { Part, PartInput, PartListQuery, PartPatch } from '../../../shared/schemas/parts.ts';
import { InvalidError, NotFoundError } from '../../errors.ts';
import { fromPartInput, fromPartPatch, toWirePart } from './part-mapper.ts';
import type { PartRepository } from './part-repository.ts';

const notFound = () => new NotFoundError('This part does not exist.');
/** Who is looking: only admins see who added a part (L2). */
interface Viewer {
  isAdmin: boolean;
}
const ADMIN: Viewer = { isAdmin: true };

/** The catalogue. Ids reach it already checked as UUIDs by the routes' params schema. */
export class CatalogService {
  readonly #parts: PartRepository;
  constructor(parts: PartRepository) {
    this.#parts = parts;
  }

  async list(query: PartListQuery, viewer: Viewer): Promise<{ items: Part[]; total: number }> {
    const { q, sort, limit, offset } = query;
    // An empty search is no search (the schema has trimmed it already).
    const { rows, total } = await this.#parts.list({ q: q || undefined }, { sort, limit, offset });
    return { items: rows.map((row) => toWirePart(row, viewer)), total };
  }

  async get(id: string, viewer: Viewer): Promise<Part> {
    const row = await this.#parts.findById(id);
    if (!row) throw notFound();
    return toWirePart(row, viewer);
  }

  /** The adder is the signed-in admin: the body's `email` is never trusted. */
  async create(input: PartInput, adminEmail: string): Promise<Part> {
    const row = await this.#parts.insert({ ...fromPartInput(input), createdByEmail: adminEmail });
    return toWirePart(row, ADMIN);
  }

  async update(id: string, patch: PartPatch): Promise<Part> {
    const changes = fromPartPatch(patch);
    if (Object.keys(changes).length === 0) {
      throw new InvalidError('Send at least one field to change.');
    }
    const row = await this.#parts.update(id, changes);
    if (!row) throw notFound();
    return toWirePart(row, ADMIN);
  }

  async remove(id: string): Promise<void> {
    if (!(await this.#parts.delete(id))) throw notFound();
  }
}
