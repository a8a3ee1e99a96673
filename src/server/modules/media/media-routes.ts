import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { uuidParamsSchema } from '../../../shared/schemas/common.ts';
import {
  PHOTO_ACCEPT,
  partPhotoParamsSchema,
  partPhotosSchema,
  photoOrderBodySchema,
} from '../../../shared/schemas/media.ts';
import { AppError, InvalidError } from '../../errors.ts';
import { requireAdmin } from '../../plugins/auth.ts';
import { bearerAuth, errorResponses } from '../../route-schemas.ts';
import type { PartPhotosService } from './part-photos-service.ts';
import { UPLOADS_URL_PREFIX } from './photo-storage.ts';

/** Stored files never change under their name (content-hashed): a browser keeps them a year without asking. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Any declared image type or plain bytes reaches the content check, which alone decides (photo-conversion.ts). */
const RAW_PHOTO_TYPES = /^(image\/[\w.+-]+|application\/octet-stream)$/;

interface MediaRoutesOptions {
  photos: PartPhotosService;
  /** Served at /uploads/ (the disk storage). */
  uploadsDir: string;
  maxUploadBytes: number;
}

/** A part's photos, uploaded and arranged by admins, read by everyone with the part. */
export const mediaRoutes: FastifyPluginAsyncZod<MediaRoutesOptions> = async (
  app,
  { photos, uploadsDir, maxUploadBytes },
) => {
  const root = path.resolve(uploadsDir);
  fs.mkdirSync(root, { recursive: true });
  await app.register(fastifyStatic, {
    root,
    prefix: UPLOADS_URL_PREFIX,
    decorateReply: false,
    index: false,
    dotfiles: 'deny',
    setHeaders(res) {
      res.header('cache-control', IMMUTABLE);
    },
  });

  // The upload takes the photo's bytes as the body (one photo per request), so this route alone parses no JSON.
  await app.register(async (plain) => {
    const upload = plain.withTypeProvider<ZodTypeProvider>();
    upload.removeAllContentTypeParsers();
    // Fastify's own 413 names no limit: this one says the photo's. Everything else goes on to the app's handler.
    const tooLarge = `A photo may be at most ${Math.round(maxUploadBytes / 1024 / 1024)} MB. Make it smaller and upload it again.`;
    upload.setErrorHandler((error) => {
      if ((error as { statusCode?: unknown }).statusCode === 413) throw new AppError(413, 'too_large', tooLarge);
      throw error;
    });
    upload.addContentTypeParser(
      RAW_PHOTO_TYPES,
      { parseAs: 'buffer', bodyLimit: maxUploadBytes },
      (_request, body, done) => done(null, body),
    );
    upload.post(
      '/api/part/:id/photos',
      {
        onRequest: requireAdmin,
        bodyLimit: maxUploadBytes,
        schema: {
          tags: ['catalog'],
          summary: 'Upload a photo of a part (admin)',
          description:
            'The body is the photo itself (`Content-Type: image/jpeg`, `image/png`, `image/webp`, `image/avif` or ' +
            '`application/octet-stream`); what it is is decided by its content, never its name or declared type. ' +
            `Up to ${Math.round(maxUploadBytes / 1024 / 1024)} MB (413 above) and 40 megapixels; SVG and other ` +
            'formats are 415. Converted to WebP at 320, 640 and 1280 px wide (no wider than the original) and added ' +
            "last; the part's first photo is its main one and its URL the part's `img`. Answers every photo of the part. " +
            'A full uploads disk is 507 `insufficient_storage` with `Retry-After` (nothing is kept of the upload).',
          security: bearerAuth,
          consumes: PHOTO_ACCEPT.split(',').concat('application/octet-stream'),
          params: uuidParamsSchema,
          body: z.any().meta({ type: 'string', format: 'binary' }),
          response: { 201: partPhotosSchema, ...errorResponses(400, 401, 403, 404, 409, 413, 415, 507) },
        },
      },
      async (request, reply) => {
        if (!Buffer.isBuffer(request.body)) throw new InvalidError('Choose a photo to upload.');
        return reply.status(201).send(await photos.upload(request.params.id, request.body));
      },
    );
  });

  app.put(
    '/api/part/:id/photos',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['catalog'],
        summary: "Reorder a part's photos (admin)",
        description: "Every photo id of the part, once each; the first becomes the main photo and the part's `img`.",
        security: bearerAuth,
        params: uuidParamsSchema,
        body: photoOrderBodySchema,
        response: { 200: partPhotosSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => photos.reorder(request.params.id, request.body.order),
  );

  app.put(
    '/api/part/:id/photos/:photoId/main',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['catalog'],
        summary: "Make a photo the part's main photo (admin)",
        description: "It moves to the front (the others keep their order) and its URL becomes the part's `img`.",
        security: bearerAuth,
        params: partPhotoParamsSchema,
        response: { 200: partPhotosSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => photos.makeMain(request.params.id, request.params.photoId),
  );

  app.delete(
    '/api/part/:id/photos/:photoId',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['catalog'],
        summary: "Remove a part's photo (admin)",
        description:
          'Its files go too unless another photo shows the same picture. Removing the main photo makes the next one ' +
          "main; removing the last sets the part's `img` to the shop's no-photo picture.",
        security: bearerAuth,
        params: partPhotoParamsSchema,
        response: { 200: partPhotosSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => photos.remove(request.params.id, request.params.photoId),
  );
};
