import './zod-config.ts';
import { dehydrate, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, matchRoutes, StaticRouterProvider } from 'react-router';
import { formatUsd } from '../shared/money.ts';
import { paths, routePatterns } from '../shared/paths.ts';
import type { PartDetails } from '../shared/schemas/parts.ts';
import {
  escapeHtml,
  type RenderRequest,
  type RenderResult,
  SERVER_RENDERED_ROUTE_MODULES,
  SERVER_STATE_ID,
  scriptJson,
} from '../shared/server-rendering.ts';
import { routes } from './app/router.tsx';
import { HOME_HERO_IMAGE } from './app/routes/home-hero.ts';
import {
  catalogFacetsQueryOptions,
  catalogPageQueryOptions,
  readCatalogSearch,
} from './features/catalog/catalog-search-params.ts';
import { latestPartsQueryOptions, partQueryOptions } from './features/catalog/parts-api.ts';
import { reviewsQueryOptions } from './features/reviews/reviews-api.ts';
import { ApiError, setApiTransport } from './lib/api-client.ts';
import { AuthProvider } from './lib/auth-context.tsx';
import { queryClient as browserQueryClient } from './lib/query-client.ts';
import { documentTitle, SHOP_DESCRIPTION } from './lib/use-page-title.ts';
import { vehicleTypesQueryOptions } from './lib/vehicle-queries.ts';

/**
 * The server-rendering entry (ADR 015), built by `vite build --ssr` into dist/ssr and loaded by the server's
 * static-spa plugin. It renders the public pages with the browser's own routes, components and query functions;
 * their data comes from the server's own API and travels to the browser in the page, under the same query keys, so
 * the browser's first render is this HTML. Signed-in pages are left to the browser (the shell).
 */

const SHOP = 'Redline Parts';
const DEFAULT_DESCRIPTION = SHOP_DESCRIPTION;

/** The public pages the server renders: the route pattern each leaf route has, and how to load its data. */
type PageKind = keyof typeof SERVER_RENDERED_ROUTE_MODULES;

/** Each page's lazy route module (router.tsx), as Vite's manifest names it. */
const routeModules: Record<PageKind, string> = SERVER_RENDERED_ROUTE_MODULES;

function pageKindOf(pathname: string): { kind: PageKind; partId?: string } | null {
  const matches = matchRoutes(routes, pathname);
  const leaf = matches?.at(-1);
  if (!leaf) return null;
  if (leaf.route.index) return { kind: 'home' };
  switch (leaf.route.path) {
    case paths.parts:
      return { kind: 'parts' };
    case routePatterns.part:
      return { kind: 'part', partId: leaf.params.partId ?? '' };
    case paths.blog:
      return { kind: 'blog' };
    case paths.portfolio:
      return { kind: 'portfolio' };
    case '*':
      return { kind: 'not-found' };
    default:
      return null;
  }
}

/** What goes into `<head>`: title, description, canonical address, Open Graph, and JSON-LD on part pages. */
interface Head {
  title: string;
  description: string;
  /** Absolute; none on the not-found page (which also asks not to be indexed). */
  canonical: string | null;
  type: 'website' | 'product';
  image: string;
  jsonLd: unknown[];
}

function headHtml(head: Head): string {
  const lines = [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
    head.canonical
      ? `<link rel="canonical" href="${escapeHtml(head.canonical)}" />`
      : '<meta name="robots" content="noindex" />',
    `<meta property="og:site_name" content="${SHOP}" />`,
    `<meta property="og:type" content="${head.type}" />`,
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(head.description)}" />`,
    head.canonical ? `<meta property="og:url" content="${escapeHtml(head.canonical)}" />` : '',
    `<meta property="og:image" content="${escapeHtml(head.image)}" />`,
    ...head.jsonLd.map((data) => `<script type="application/ld+json">${scriptJson(data)}</script>`),
  ];
  return lines.filter(Boolean).join('\n    ');
}

/** A description fit for a search result: one line, at most ~160 characters. */
function summary(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= 160 ? line : `${line.slice(0, 157).trimEnd()}…`;
}

/** schema.org Product with its Offer, and the BreadcrumbList of the part page (Google's Rich Results shapes). */
function partJsonLd(part: PartDetails, url: string, base: string): unknown[] {
  const images = (part.photos.length > 0 ? part.photos.map((photo) => photo.url) : [part.img]).map(
    (image) => new URL(image, base).href,
  );
  const product = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: part.name,
    image: images,
    description: summary(part.desription),
    sku: part._id,
    ...(part.mpn ? { mpn: part.mpn } : {}),
    ...(part.brand ? { brand: { '@type': 'Brand', name: part.brand.name } } : {}),
    // Reviews are of the shop, not of a part (spec §3): no part has an aggregate rating to give.
    offers: {
      '@type': 'Offer',
      url,
      price: part.price.toFixed(2),
      priceCurrency: 'USD',
      availability: part.availablequantity > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/NewCondition',
    },
  };
  const breadcrumbs = {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [
      { '@type': 'ListItem', position: 1, name: 'Home', item: `${base}${paths.home}` },
      { '@type': 'ListItem', position: 2, name: 'Parts', item: `${base}${paths.parts}` },
      { '@type': 'ListItem', position: 3, name: part.name, item: url },
    ],
  };
  return [product, breadcrumbs];
}

export async function render(request: RenderRequest): Promise<RenderResult> {
  const base = request.publicUrl;
  const url = new URL(request.url, base);
  const page = pageKindOf(url.pathname);
  if (!page) return { kind: 'shell', status: 200 };
  const status = page.kind === 'not-found' ? 404 : 200;

  // Every call goes to the server's own app; the browser's transport is never used in this bundle.
  setApiTransport({ origin: () => base, fetch: request.fetch });
  // The query client of this request alone, with the browser's defaults, so its answers are the browser's first data.
  const queryClient = new QueryClient({ defaultOptions: browserQueryClient.getDefaultOptions() });
  const head: Head = {
    title: documentTitle(),
    description: DEFAULT_DESCRIPTION,
    canonical: `${base}${url.pathname === '/' ? '/' : url.pathname}`,
    type: 'website',
    image: new URL(HOME_HERO_IMAGE, base).href,
    jsonLd: [],
  };

  try {
    switch (page.kind) {
      case 'home':
        await Promise.all([
          queryClient.prefetchQuery(latestPartsQueryOptions(undefined)),
          queryClient.prefetchQuery(reviewsQueryOptions(6)),
          // The vehicle finder's first list: with it in the page, the browser asks the API nothing (and loads no
          // schema, ADR 018) until the visitor picks a type.
          queryClient.prefetchQuery(vehicleTypesQueryOptions),
        ]);
        head.canonical = `${base}/`;
        break;
      case 'parts': {
        const search = readCatalogSearch(url.searchParams);
        await Promise.all([
          queryClient.prefetchQuery(catalogPageQueryOptions(search, null)),
          queryClient.prefetchQuery(catalogFacetsQueryOptions(search, null)),
          queryClient.prefetchQuery(vehicleTypesQueryOptions),
        ]);
        head.title = documentTitle('Parts');
        head.description = search.q
          ? `Parts for "${search.q}" at ${SHOP}: prices, stock and what fits your vehicle.`
          : `Every part at ${SHOP}: brakes, seats, helmets, chains and filters, with prices, stock and fitment.`;
        head.canonical = `${base}${paths.parts}${search.page > 1 ? `?page=${search.page}` : ''}`;
        break;
      }
      case 'part': {
        let part: PartDetails;
        try {
          part = await queryClient.fetchQuery(partQueryOptions(page.partId ?? '', null));
        } catch (error) {
          // A part that does not exist (or a malformed id) is no page: 404, and the browser says so. Any other
          // failure leaves the page to the browser, which asks again.
          const missing = error instanceof ApiError && (error.status === 404 || error.status === 400);
          return { kind: 'shell', status: missing ? 404 : 200 };
        }
        const canonical = `${base}${paths.part(part._id)}`;
        head.title = documentTitle(`Purchase ${part.name}`);
        head.description = summary(`${part.name}, ${formatUsd(part.price)}: ${part.desription}`);
        head.canonical = canonical;
        head.type = 'product';
        head.image = new URL(part.photos[0]?.url ?? part.img, base).href;
        head.jsonLd = partJsonLd(part, canonical, base);
        break;
      }
      case 'blog':
        head.title = documentTitle('Blogs');
        head.description = `The ${SHOP} blog: how the shop and its web app are built.`;
        break;
      case 'portfolio':
        head.title = documentTitle('My Portfolio');
        head.description = `Who builds ${SHOP}: the developer's portfolio, skills and projects.`;
        break;
      case 'not-found':
        head.title = documentTitle('Page Not Found');
        head.description = 'The page you are looking for does not exist or has moved.';
        head.canonical = null;
        break;
    }

    // A failed query would render its error here but be pending in the browser (failures are not sent along): the
    // page shows it loading, as the browser's first render will, and the browser asks again.
    queryClient.removeQueries({ predicate: (query) => query.state.status === 'error' });

    const handler = createStaticHandler(routes);
    const context = await handler.query(new Request(url.href, { method: 'GET' }));
    if (context instanceof Response) return { kind: 'shell', status: 200 };
    const router = createStaticRouter(handler.dataRoutes, context);

    const { prelude } = await prerenderToNodeStream(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <AuthProvider>
            <StaticRouterProvider router={router} context={context} hydrate={false} />
          </AuthProvider>
        </QueryClientProvider>
      </StrictMode>,
      // One piece: React would otherwise move a large boundary's HTML to the end with an inline script to put it in
      // place, which the Content-Security-Policy forbids (and a crawler need not run).
      { progressiveChunkSize: Number.MAX_SAFE_INTEGER },
    );
    const chunks: Buffer[] = [];
    for await (const chunk of prelude) chunks.push(Buffer.from(chunk));

    // React puts the resources it hoists (the `<link rel="preload" as="image">` of images with a high fetch priority)
    // at the start of the HTML when it renders no whole document; they belong in <head>. In #root they would stand
    // where the browser's hydration expects the layout.
    const { hoisted, html } = splitHoistedLinks(Buffer.concat(chunks).toString('utf8'));

    const state = scriptJson({
      router: { loaderData: context.loaderData, actionData: context.actionData, errors: context.errors },
      queries: dehydrate(queryClient),
    });
    return {
      kind: 'page',
      status,
      head: headHtml(head) + hoisted,
      body: html,
      state: `<script type="application/json" id="${SERVER_STATE_ID}">${state}</script>`,
      routeModule: routeModules[page.kind],
    };
  } finally {
    // The list's page and counts share one request through the browser's module-wide query client
    // (catalog-search-params.ts); on the server that cache must not outlive the requests that use it. Only what no
    // request is still fetching goes: removing a query cancels its fetch, another request's page would lose it.
    browserQueryClient.removeQueries({ predicate: (query) => query.state.fetchStatus === 'idle' });
    queryClient.clear();
  }
}

/** The `<link …/>` tags at the start of React's HTML, and the rest. */
function splitHoistedLinks(html: string): { hoisted: string; html: string } {
  const leading = /^(?:<link\b[^>]*\/?>)+/.exec(html);
  if (!leading) return { hoisted: '', html };
  return { hoisted: leading[0], html: html.slice(leading[0].length) };
}
