/** What the sitemap needs of the catalogue (ADR 006 port): the parts, in a stable order, a page at a time. */
export interface SitemapPartSource {
  countParts(): Promise<number>;
  /** Parts in id order after `afterId` (keyset: the last page costs what the first costs), with their last change. */
  partsAfter(afterId: string | undefined, limit: number): Promise<{ id: string; updatedAt: Date }[]>;
  /** The last id of every full page of `size` parts, in id order: one statement over the primary key. */
  pageEnds(size: number): Promise<string[]>;
}

/**
 * Parts per sitemap file. The protocol allows 50,000 URLs (50 MB) a file; 10,000 keeps each answer small (about
 * 1 MB) and quick to build, and 100,000 parts are ten files named by one index.
 */
export const PARTS_PER_SITEMAP = 10_000;

/** The public pages that are not parts (spec §1: visitors browse the shop). */
const PUBLIC_PAGES = ['/', '/allparts', '/blog', '/myprotfolio'];

/** What crawlers may not index: the API, accounts, the cart and everything behind sign-in. */
const PRIVATE_PREFIXES = [
  '/api/',
  '/dashboard',
  '/cart',
  '/checkout',
  '/login',
  '/register',
  '/auth/',
  '/forgot-password',
  '/reset-password',
  '/verify-email',
];

function xmlEscape(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * robots.txt and the sitemaps. URLs are absolute, built from PUBLIC_URL (never from the
 * request's Host header, which the client chooses).
 */
export class SitemapService {
  readonly #parts: SitemapPartSource;
  readonly #base: string;
  readonly #perFile: number;

  constructor(parts: SitemapPartSource, publicUrl: string, perFile = PARTS_PER_SITEMAP) {
    this.#parts = parts;
    this.#base = publicUrl.replace(/\/+$/, '');
    this.#perFile = perFile;
  }

  robots(): string {
    return [
      'User-agent: *',
      'Allow: /',
      ...PRIVATE_PREFIXES.map((prefix) => `Disallow: ${prefix}`),
      '',
      `Sitemap: ${this.#base}/sitemap.xml`,
      '',
    ].join('\n');
  }

  /** The sitemap index: the pages' sitemap and one per PARTS_PER_SITEMAP parts. */
  async index(): Promise<string> {
    const files = Math.ceil((await this.#parts.countParts()) / this.#perFile);
    const entries = ['pages', ...Array.from({ length: files }, (_, i) => `parts-${i + 1}`)].map(
      (name) => `  <sitemap><loc>${xmlEscape(`${this.#base}/sitemaps/${name}.xml`)}</loc></sitemap>`,
    );
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...entries,
      '</sitemapindex>',
      '',
    ].join('\n');
  }

  pages(): string {
    return urlSet(PUBLIC_PAGES.map((page) => ({ loc: `${this.#base}${page}` })));
  }

  /** The `n`th parts sitemap (from 1), or undefined when there is no such file. */
  async partsFile(n: number): Promise<string | undefined> {
    if (!Number.isInteger(n) || n < 1) return undefined;
    if (n > Math.ceil((await this.#parts.countParts()) / this.#perFile)) return undefined;
    const after = n === 1 ? undefined : (await this.#parts.pageEnds(this.#perFile))[n - 2];
    if (n > 1 && after === undefined) return undefined;
    const rows = await this.#parts.partsAfter(after, this.#perFile);
    return urlSet(
      rows.map((row) => ({ loc: `${this.#base}/part/${row.id}`, lastmod: row.updatedAt.toISOString().slice(0, 10) })),
    );
  }
}

function urlSet(urls: { loc: string; lastmod?: string }[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map(
      (url) => `  <url><loc>${xmlEscape(url.loc)}</loc>${url.lastmod ? `<lastmod>${url.lastmod}</lastmod>` : ''}</url>`,
    ),
    '</urlset>',
    '',
  ].join('\n');
}
