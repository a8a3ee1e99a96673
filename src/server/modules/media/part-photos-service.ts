import { MAX_PHOTOS_PER_PART, NO_PHOTO_IMAGE, type PartPhoto } from '../../../shared/schemas/media.ts';
import type { Transaction } from '../../db/client.ts';
import { ConflictError, InvalidError, NotFoundError } from '../../errors.ts';
import type { PartPhotoRepository, PartPhotoRow } from './part-photo-repository.ts';
import { convertPhoto } from './photo-conversion.ts';
import type { PhotoStorage } from './photo-storage.ts';

/** The width whose URL is a photo's `url` and the main photo's part `img`. */
const DEFAULT_WIDTH = 640;

/**
 * What the media module needs of the catalogue (ADR 006 ports): the part locked in the photo write's transaction,
 * and its spec `img` set to the main photo's URL in that same transaction, so the two never disagree.
 */
export interface PartImagePort {
  /** Locks the part's row; false when there is no such part. */
  lock(tx: Transaction, partId: string): Promise<boolean>;
  exists(partId: string): Promise<boolean>;
  setImage(tx: Transaction, partId: string, img: string): Promise<void>;
}

/** How old a stored file must be before housekeeping may remove it for want of a row. */
const UNUSED_FILE_GRACE_MS = 60 * 60 * 1000;

const partNotFound = () => new NotFoundError('This part does not exist.');
const photoNotFound = () => new NotFoundError('This photo does not exist.');

/**
 * A part's uploaded photos (ADR 013): upload (checked by content, converted to WebP, stored, then
 * recorded), reorder, make one the main photo, remove. The first photo is the main one; every change that moves
 * the first photo writes the part's `img` in the same transaction.
 */
export class PartPhotosService {
  readonly #photos: PartPhotoRepository;
  readonly #storage: PhotoStorage;
  readonly #parts: PartImagePort;
  constructor(photos: PartPhotoRepository, storage: PhotoStorage, parts: PartImagePort) {
    this.#photos = photos;
    this.#storage = storage;
    this.#parts = parts;
  }

  /** The photos of a part as the wire shows them (the catalogue's part details read them through its port). */
  async photosOf(partId: string): Promise<PartPhoto[]> {
    return (await this.#photos.listOf(partId)).map((row, index) => this.#wire(row, index === 0));
  }

  async upload(partId: string, bytes: Buffer): Promise<PartPhoto[]> {
    // Cheap refusals first: an unknown part costs no conversion.
    if (!(await this.#parts.exists(partId))) throw partNotFound();
    const converted = await convertPhoto(bytes);
    // Files before the row: a row never names files that are not there. A failed write removes what it stored.
    await this.#storage.put(converted.key, converted.files);
    const widths = converted.files.map((file) => file.width);
    try {
      return await this.#withLockedPart(partId, async (tx, current) => {
        if (current.length >= MAX_PHOTOS_PER_PART) {
          throw new ConflictError(`A part can have at most ${MAX_PHOTOS_PER_PART} photos. Remove one first.`);
        }
        const position = current.reduce((max, row) => Math.max(max, row.position + 1), 0);
        await this.#photos.insert(tx, {
          partId,
          position,
          storageKey: converted.key,
          widths,
          width: converted.width,
          height: converted.height,
        });
        return this.#afterChange(tx, partId, current.length === 0);
      });
    } catch (error) {
      await this.#forgetFiles(converted.key, widths);
      throw error;
    }
  }

  /** Every photo of the part, once each, in the new order; the first becomes the main photo. */
  async reorder(partId: string, order: readonly string[]): Promise<PartPhoto[]> {
    return this.#withLockedPart(partId, async (tx, current) => {
      const known = new Set(current.map((row) => row.id));
      if (
        order.length !== current.length ||
        new Set(order).size !== order.length ||
        !order.every((id) => known.has(id))
      ) {
        throw new InvalidError('List every photo of this part exactly once, in the new order.');
      }
      await this.#photos.setOrder(tx, partId, order);
      return this.#afterChange(tx, partId, order[0] !== current[0]?.id);
    });
  }

  /** The photo moves to the front; the others keep their order after it. */
  async makeMain(partId: string, photoId: string): Promise<PartPhoto[]> {
    return this.#withLockedPart(partId, async (tx, current) => {
      if (!current.some((row) => row.id === photoId)) throw photoNotFound();
      const order = [photoId, ...current.map((row) => row.id).filter((id) => id !== photoId)];
      await this.#photos.setOrder(tx, partId, order);
      return this.#afterChange(tx, partId, current[0]?.id !== photoId);
    });
  }

  async remove(partId: string, photoId: string): Promise<PartPhoto[]> {
    const { photos, removed } = await this.#withLockedPart(partId, async (tx, current) => {
      const wasMain = current[0]?.id === photoId;
      const row = await this.#photos.delete(tx, partId, photoId);
      if (!row) throw photoNotFound();
      const rest = await this.#photos.listOf(partId, tx);
      await this.#photos.setOrder(
        tx,
        partId,
        rest.map((r) => r.id),
      );
      return { photos: await this.#afterChange(tx, partId, wasMain), removed: row };
    });
    // After the commit: files another photo (the same picture on another part) still shows are kept.
    await this.#forgetFiles(removed.storageKey, removed.widths);
    return photos;
  }

  /**
   * Housekeeping: files no photo row names any more (a deleted part's photos go with it by ON DELETE CASCADE, and an
   * upload whose process died between its files and its row), and temporary files of writes cut short, removed once
   * an hour old: younger files may belong to an upload still on its way to its row. Answers how many photos went.
   */
  async sweepUnusedFiles(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - UNUSED_FILE_GRACE_MS);
    // Temporary files of writes a crash or a full disk cut short: an upload writes its files in seconds.
    await this.#storage.removeLeftoversBefore(cutoff);
    const stored = await this.#storage.storedBefore(cutoff);
    const used = await this.#photos.keysInUse(stored.map((entry) => entry.key));
    const unused = stored.filter((entry) => !used.has(entry.key));
    for (const entry of unused) await this.#storage.remove(entry.key, entry.widths);
    return unused.length;
  }

  /**
   * One transaction over a part's photos: the part's row locked first (two admins' changes to one part's photos
   * take turns), then its photos as they are, in order.
   */
  #withLockedPart<T>(partId: string, work: (tx: Transaction, current: PartPhotoRow[]) => Promise<T>): Promise<T> {
    return this.#photos.transaction(async (tx) => {
      if (!(await this.#parts.lock(tx, partId))) throw partNotFound();
      return work(tx, await this.#photos.listOf(partId, tx));
    });
  }

  /** The photos as they now are; when the main photo changed, the part's `img` follows it in the same transaction. */
  async #afterChange(tx: Transaction, partId: string, mainChanged: boolean): Promise<PartPhoto[]> {
    const rows = await this.#photos.listOf(partId, tx);
    const photos = rows.map((row, index) => this.#wire(row, index === 0));
    if (mainChanged) await this.#parts.setImage(tx, partId, photos[0]?.url ?? NO_PHOTO_IMAGE);
    return photos;
  }

  async #forgetFiles(key: string, widths: readonly number[]): Promise<void> {
    if (await this.#photos.keyInUse(key)) return;
    await this.#storage.remove(key, widths);
  }

  #wire(row: PartPhotoRow, main: boolean): PartPhoto {
    const widths = [...row.widths].sort((a, b) => a - b);
    const largest = widths.at(-1) ?? row.width;
    const medium = widths.filter((w) => w <= DEFAULT_WIDTH).at(-1) ?? widths[0] ?? largest;
    return {
      id: row.id,
      url: this.#storage.urlOf(row.storageKey, medium),
      srcset: widths.map((w) => `${this.#storage.urlOf(row.storageKey, w)} ${w}w`).join(', '),
      largeUrl: this.#storage.urlOf(row.storageKey, largest),
      width: row.width,
      height: row.height,
      main,
    };
  }
}
