import type { PartPhoto } from '../../../shared/schemas/media.ts';

/** What the catalogue needs of the media module (ADR 006 ports, ADR 013): a part's photos for its details. */
export interface PartPhotosPort {
  /** The part's uploaded photos in order, the main one first; none is an empty list. */
  photosOf(partId: string): Promise<PartPhoto[]>;
}
