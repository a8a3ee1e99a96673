import { z } from 'zod';

/** `GET /sitemaps/:file`: `pages.xml` or `parts-<n>.xml` (n from 1); anything else is 400, a missing file 404. */
export const sitemapFileParamsSchema = z.object({
  file: z
    .string()
    .max(40)
    .regex(/^(pages|parts-[1-9][0-9]{0,5})\.xml$/, 'A sitemap is pages.xml or parts-<n>.xml.'),
});
