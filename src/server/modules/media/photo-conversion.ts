import crypto from 'node:crypto';
import type { Metadata } from 'sharp';
import { PHOTO_FORMATS } from '../../../shared/schemas/media.ts';
import { AppError, InvalidError } from '../../errors.ts';

/** The widths each photo is stored at (never wider than the original). */
export const PHOTO_WIDTHS = [320, 640, 1280] as const;

/**
 * The widths one original is stored at: each fixed width it reaches, plus its own width when that lies below the
 * largest fixed width and is not one of them. Without its own width a 600 px photo would be kept only at 320 px
 * and a wide screen would show it blurred; above the largest width it is capped (never enlarged).
 */
export function widthsFor(originalWidth: number): number[] {
  const widths: number[] = PHOTO_WIDTHS.filter((w) => w <= originalWidth);
  const largest = PHOTO_WIDTHS.at(-1) ?? originalWidth;
  if (originalWidth < largest && !widths.includes(originalWidth)) widths.push(originalWidth);
  return widths;
}
/**
 * The most pixels an upload may declare (40 megapixels: a 7,700 × 5,200 camera photo). A "decompression bomb" (a
 * tiny PNG that declares 50,000 × 50,000 pixels, 10 GB decoded) is refused from its header, before any decoding;
 * sharp's own `limitInputPixels` is set to the same number as a second guard.
 */
export const MAX_INPUT_PIXELS = 40_000_000;
const WEBP_QUALITY = 80;

type SniffedFormat = 'jpeg' | 'png' | 'webp' | 'avif';

const unsupported = () =>
  new AppError(
    415,
    'unsupported_media_type',
    `This file is not a photo the shop can use. Upload a ${PHOTO_FORMATS.slice(0, -1).join(', ')} or ${PHOTO_FORMATS.at(-1)} image.`,
  );

/**
 * What the bytes are, from their first bytes (magic numbers), whatever the file was called or declared as. SVG
 * (which can carry script), GIF, HEIC, PDF, ZIP and text are none of these, so they are refused here.
 */
export function sniffFormat(bytes: Buffer): SniffedFormat | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  // ISO base media file: a `ftyp` box whose brands name AVIF (major brand, or among the compatible ones).
  if (bytes.length >= 16 && bytes.toString('latin1', 4, 8) === 'ftyp') {
    const boxSize = Math.min(bytes.readUInt32BE(0), bytes.length, 256);
    const brands = bytes.toString('latin1', 8, boxSize);
    if (/avi[fs]/.test(brands)) return 'avif';
  }
  return undefined;
}

/**
 * sharp is loaded on the first upload, not at start-up: libvips and its native libraries are resident
 * memory that a server which never converts a photo does not need (memory at rest has a budget: docs/performance.md).
 */
function loadSharp(): Promise<Sharp> {
  sharpModule ??= import('sharp').then((module) => module.default);
  return sharpModule;
}
type Sharp = typeof import('sharp').default;
let sharpModule: Promise<Sharp> | undefined;

/** sharp's names for the formats it reads (AVIF is read by its HEIF loader). */
const SHARP_FORMAT: Record<SniffedFormat, string> = { jpeg: 'jpeg', png: 'png', webp: 'webp', avif: 'heif' };

export interface ConvertedPhoto {
  /** Content-hashed: the same upload is the same key, and a key's files never change (cached for a year). */
  key: string;
  files: { width: number; data: Buffer }[];
  width: number;
  height: number;
}

/**
 * Checks an upload by its content and converts it: WebP at each of PHOTO_WIDTHS no wider than the original, and
 * at the original's own width when it is narrower than the largest (`widthsFor`), turned upright from its EXIF
 * orientation, every metadata field (camera, GPS position) dropped. Refusals are 4xx AppErrors; nothing is stored
 * here.
 */
export async function convertPhoto(bytes: Buffer): Promise<ConvertedPhoto> {
  if (bytes.length === 0) throw new InvalidError('Choose a photo to upload.');
  const format = sniffFormat(bytes);
  if (!format) throw unsupported();
  const sharp = await loadSharp();
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' } as const;
  let meta: Metadata;
  try {
    // Reads the header only: a declared size is known before a single pixel is decoded.
    meta = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
  } catch {
    throw new InvalidError('This photo could not be read: the file is damaged or not a complete image.');
  }
  if (meta.format !== SHARP_FORMAT[format] || !meta.width || !meta.height) throw unsupported();
  if (meta.width * meta.height > MAX_INPUT_PIXELS) {
    throw new InvalidError(
      `This photo is ${meta.width} × ${meta.height} pixels; the most the shop takes is ${MAX_INPUT_PIXELS / 1_000_000} megapixels. Make it smaller and upload it again.`,
    );
  }
  // EXIF orientations 5 to 8 turn the picture a quarter: its upright width is its stored height.
  const uprightWidth = (meta.orientation ?? 1) >= 5 ? meta.height : meta.width;
  const widths = widthsFor(uprightWidth);
  const key = crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  try {
    // Decoded once, upright and at the largest width (JPEG shrinks while decoding); each width is made from that.
    const largest = await sharp(bytes, options)
      .rotate()
      .resize({ width: widths.at(-1), withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width: rawWidth, height: rawHeight, channels } = largest.info;
    const files: ConvertedPhoto['files'] = [];
    for (const width of widths) {
      const data = await sharp(largest.data, { raw: { width: rawWidth, height: rawHeight, channels } })
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: WEBP_QUALITY })
        .toBuffer();
      files.push({ width, data });
    }
    return { key, files, width: rawWidth, height: rawHeight };
  } catch {
    // A header that passed but pixels that do not decode (truncated, corrupt, or over sharp's own pixel limit).
    throw new InvalidError('This photo could not be read: the file is damaged or not a complete image.');
  }
}
