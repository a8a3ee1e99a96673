import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sitemapFileParamsSchema } from '../../../shared/schemas/seo.ts';
import { NotFoundError } from '../../errors.ts';
import type { SitemapService } from './sitemap-service.ts';

/** Crawlers may keep these for an hour: a new part shows up in the sitemap within that. */
const CACHE = 'public, max-age=3600';

/** robots.txt and the sitemaps: public, read-only, built from the catalogue. */
export const seoRoutes: FastifyPluginAsyncZod<{ sitemap: SitemapService }> = async (app, { sitemap }) => {
  app.get(
    '/robots.txt',
    { schema: { tags: ['seo'], summary: 'What crawlers may index, and where the sitemap is' } },
    async (_request, reply) =>
      reply.type('text/plain; charset=utf-8').header('cache-control', CACHE).send(sitemap.robots()),
  );

  app.get(
    '/sitemap.xml',
    { schema: { tags: ['seo'], summary: 'The sitemap index: the pages, and one sitemap per 10,000 parts' } },
    async (_request, reply) =>
      reply
        .type('application/xml; charset=utf-8')
        .header('cache-control', CACHE)
        .send(await sitemap.index()),
  );

  app.get(
    '/sitemaps/:file',
    {
      schema: {
        tags: ['seo'],
        summary: 'One sitemap: pages.xml (the public pages) or parts-<n>.xml (parts in id order)',
        params: sitemapFileParamsSchema,
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      const body =
        file === 'pages.xml' ? sitemap.pages() : await sitemap.partsFile(Number(/\d+/.exec(file)?.[0] ?? '0'));
      if (body === undefined) throw new NotFoundError('No such sitemap.');
      return reply.type('application/xml; charset=utf-8').header('cache-control', CACHE).send(body);
    },
  );
};
