import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isPagePath } from '../../shared/paths.ts';
import { errorBody } from '../errors.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built SPA: hashed assets cached for a year, everything else revalidated, and `index.html` for every
 * non-API path so the web app's router decides what to show: with 200 for the app's pages (src/shared/paths.ts),
 * with 404 for any other address, where the app shows its not-found page (issue 15: an unknown address is no page).
 * `/robots.txt` and the sitemaps are the app's own answers (modules/seo): a build must not carry files of those
 * names (each file becomes a route here, and two routes for one path stop the start with Fastify's error).
 */
export const staticSpaPlugin = fp(
  async (app: FastifyInstance, options: { root: string }) => {
    const root = path.resolve(options.root);
    const hasBuild = fs.existsSync(path.join(root, 'index.html'));
    if (hasBuild) {
      await app.register(fastifyStatic, {
        root,
        wildcard: false,
        index: false,
        // The build writes .br and .gz beside each asset: served as they are, no compression per request.
        preCompressed: true,
        setHeaders(res, filePath) {
          if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', IMMUTABLE);
          else if (/\.html(\.br|\.gz)?$/.test(filePath)) res.header('cache-control', 'no-cache');
          else res.header('cache-control', 'public, max-age=86400');
        },
      });
    } else {
      app.log.warn(`No web build in ${root}: run "npm run build" to serve the shop's pages.`);
    }

    app.setNotFoundHandler((request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      const isPage = (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api');
      // Paths with a file extension are missing files, not pages: a 404 beats serving HTML as JavaScript.
      if (isPage && hasBuild && !path.extname(pathname)) {
        return reply
          .status(isPagePath(pathname) ? 200 : 404)
          .header('cache-control', 'no-cache')
          .type('text/html')
          .sendFile('index.html', root);
      }
      const what = pathname.startsWith('/api') ? 'API route' : 'file';
      return reply.status(404).send(errorBody('not_found', `No ${what} ${request.method} ${pathname}.`));
    });
  },
  { name: 'static-spa' },
);
