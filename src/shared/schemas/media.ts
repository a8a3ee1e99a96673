import { z } from 'zod';

/**
 * A part's uploaded photos. Each is stored as WebP at a few widths; `srcset` lists them so a browser picks
 * the smallest that fills its slot (a phone downloads the 320 or 640 one). The first photo is the main one, and its
 * `url` is also the part's `img`, so clients of the spec's fields see it unchanged.
 */
export const partPhotoSchema = z.object({
  id: z.string(),
  /** The medium width (640, or the largest when the original is smaller): a sensible `src`. */
  url: z.string(),
  srcset: z.string().describe('"/uploads/parts/…-320.webp 320w, …-640.webp 640w, …"'),
  /** The largest width stored, for a zoomed view. */
  largeUrl: z.string(),
  width: z.number().int().describe('Of the largest file, for the aspect ratio'),
  height: z.number().int(),
  main: z.boolean(),
});
export type PartPhoto = z.infer<typeof partPhotoSchema>;

export const partPhotosSchema = z.array(partPhotoSchema);

/** The image formats an upload may be, by its content (never by its name or declared type). */
export const PHOTO_FORMATS = ['JPEG', 'PNG', 'WebP', 'AVIF'] as const;
/** What the file picker offers; the server checks the bytes anyway. */
export const PHOTO_ACCEPT = 'image/jpeg,image/png,image/webp,image/avif';
/** A part's `img` once its last photo is removed, and while an added part waits for its first upload. */
export const NO_PHOTO_IMAGE = '/images/parts/no-photo.svg';
/** The most photos one part may have. */
export const MAX_PHOTOS_PER_PART = 12;

/** `PUT /api/part/{id}/photos`: every photo of the part, in the new order; the first becomes the main one. */
export const photoOrderBodySchema = z.strictObject({
  order: z
    .array(z.guid({ error: 'Provide A Valid Id' }))
    .min(1, 'List The Photos In Their New Order')
    .max(MAX_PHOTOS_PER_PART, `A Part Has At Most ${MAX_PHOTOS_PER_PART} Photos`),
});
export type PhotoOrderBody = z.infer<typeof photoOrderBodySchema>;

/** `…/photos/{photoId}`: the part and one of its photos. */
export const partPhotoParamsSchema = z.strictObject({
  id: z.guid({ error: 'Provide A Valid Id' }),
  photoId: z.guid({ error: 'Provide A Valid Id' }),
});
