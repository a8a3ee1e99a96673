import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { isPagePath } from '../../shared/paths.ts';
import type { RenderResult, ServerRenderer } from '../../shared/server-rendering.ts';
import { errorBody } from '../errors.ts';
import { preferredEncoding } from './catalog-read-cache.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The CSP sources of the stylesheet the web build inlined into index.html (vite.config.ts, `inlineStylesheet`; ADR 018),
 * as the build wrote them beside it. No build, or a build without the file: none.
 */
export function inlineStyleHashes(root: string): string[] {
  const file = path.join(path.resolve(root), '.vite', 'inline-style-hashes.json');
  if (!fs.existsSync(file)) return [];
  const hashes: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (
    !Array.isArray(hashes) ||
    !hashes.every((hash) => typeof hash === 'string' && /^'sha256-[A-Za-z0-9+/=]+'$/.test(hash))
  )
    throw new Error(`${file} does not hold a list of 'sha256-…' sources`);
  return hashes;
}

/**
 * Serves the built SPA: hashed assets cached for a year, everything else revalidated, and `index.html` for every
 * non-API path so the web app's router decides what to show: with 200 for the app's pages (src/shared/paths.ts),
 * with 404 for any other address, where the app shows its not-found page (an unknown address is no page).
 * `/robots.txt` and the sitemaps are the app's own answers (modules/seo): a build must not carry files of those
 * names (each file becomes a route here, and two routes for one path stop the start with Fastify's error).
 */
export const staticSpaPlugin = fp(
  async (app: FastifyInstance, options: { root: string; publicUrl: string }) => {
    const root = path.resolve(options.root);
    const hasBuild = fs.existsSync(path.join(root, 'index.html'));
    const pages = hasBuild ? serverRenderedPages(app, root, options.publicUrl) : null;
    if (hasBuild) {
      // One rule for both registrations and for `reply.sendFile` (the first one's), which serves index.html.
      const setHeaders = (res: { header(name: string, value: string): unknown }, filePath: string) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', IMMUTABLE);
        else if (/\.html(\.br|\.gz)?$/.test(filePath)) res.header('cache-control', 'no-cache');
        else res.header('cache-control', 'public, max-age=86400');
      };
      // The hashed assets, most of the build's files, through one wildcard route (a route per file made the start
      // noticeably slower); the build writes .br and .gz beside each: served as they are, no compression per request.
      await app.register(fastifyStatic, {
        root: path.join(root, 'assets'),
        prefix: '/assets/',
        index: false,
        preCompressed: true,
        setHeaders,
      });
      // The rest (index.html, images) a route per file, so a page's address never costs a look at the disk.
      await app.register(fastifyStatic, {
        root,
        wildcard: false,
        index: false,
        preCompressed: true,
        globIgnore: ['assets/**', '**/*.br', '**/*.gz'],
        decorateReply: false,
        setHeaders,
      });
    } else {
      app.log.warn(`No web build in ${root}: run "npm run build" to serve the shop's pages.`);
    }

    app.setNotFoundHandler((request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      const isPage = (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api');
      // Paths with a file extension are missing files, not pages: a 404 beats serving HTML as JavaScript.
      if (isPage && hasBuild && !path.extname(pathname)) {
        const status = isPagePath(pathname) ? 200 : 404;
        return (async () => {
          const page = await pages?.render(request.url, status);
          reply
            .status(page?.status ?? status)
            .header('cache-control', 'no-cache')
            .type('text/html');
          // The build's precompressed index.html.br / .gz when the browser takes them.
          if (page?.html == null) return reply.sendFile('index.html', root);
          return compressPage(page.html, request.headers['accept-encoding'], reply);
        })();
      }
      const what = pathname.startsWith('/api') ? 'API route' : 'file';
      return reply.status(404).send(errorBody('not_found', `No ${what} ${request.method} ${pathname}.`));
    });
  },
  { name: 'static-spa' },
);

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * A rendered page compressed as the browser accepts it. The not-found handler is no route, so @fastify/compress (which
 * hooks into each route) never sees its answers; and a page carries the app's whole stylesheet inline (ADR 018), so
 * it is large and compresses well. Brotli at quality 5 keeps the work small, and it runs on libuv's thread pool.
 */
async function compressPage(
  html: string,
  acceptEncoding: string | undefined,
  reply: FastifyReply,
): Promise<Buffer | string> {
  reply.header('vary', 'accept-encoding');
  const encoding = preferredEncoding(acceptEncoding);
  if (!encoding || html.length < 1024) return html;
  const body =
    encoding === 'br'
      ? await brotli(html, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(html),
          },
        })
      : await gzip(html, { level: 6 });
  reply.header('content-encoding', encoding);
  return body;
}

/**
 * ADR 015: the public pages rendered on the server by the web app's own bundle (`vite build --ssr`, in
 * `ssr/` beside the web build), loaded at the first page request so a server that serves only the API never pays
 * for React. The page's data comes from this app's own API through `app.inject`, so validation, caching and limits
 * apply as for any client. When there is no bundle, or rendering fails, the shell is served as before: the browser
 * renders the page, as it always could.
 */
function serverRenderedPages(app: FastifyInstance, root: string, publicUrl: string) {
  const bundle = path.join(path.dirname(root), 'ssr', 'entry-server.js');
  if (!fs.existsSync(bundle)) {
    app.log.warn(`No server-rendering bundle at ${bundle}: pages are rendered in the browser only (npm run build).`);
    return null;
  }
  const template = fs.readFileSync(path.join(root, 'index.html'), 'utf8');
  const assets = routeAssets(root, template);
  let renderer: Promise<ServerRenderer> | undefined;

  const fetchFromApp = async (url: URL, init: RequestInit): Promise<Response> => {
    const answer = await app.inject({
      method: (init.method ?? 'GET') as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: { accept: 'application/json' },
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    }
    const empty = answer.statusCode === 204 || answer.statusCode === 304;
    return new Response(empty ? null : new Uint8Array(answer.rawPayload), { status: answer.statusCode, headers });
  };

  return {
    async render(url: string, status: number): Promise<{ status: number; html: string | null }> {
      let result: RenderResult;
      try {
        renderer ??= import(pathToFileURL(bundle).href) as Promise<ServerRenderer>;
        result = await (await renderer).render({ url, publicUrl, fetch: fetchFromApp });
      } catch (error) {
        app.log.error({ err: error, url }, 'Server rendering failed: serving the page for the browser to render');
        return { status, html: null };
      }
      if (result.kind === 'shell') return { status: Math.max(status, result.status), html: null };
      return { status: result.status, html: fillTemplate(template, result, assets(result.routeModule)) };
    },
  };
}

/** The built index.html with the rendered page: its head tags, its HTML in #root, its data for the hydration. */
function fillTemplate(template: string, page: Extract<RenderResult, { kind: 'page' }>, assets: string): string {
  return template
    .replace(/<title>[\s\S]*?<\/title>/, '')
    .replace(/<meta name="description"[^>]*>/, '')
    .replace('</head>', `    ${page.head}\n${assets}  </head>`)
    .replace(
      /<div id="root">[\s\S]*?<\/div>\s*<noscript>/,
      () => `<div id="root">${page.body}</div>\n    ${page.state}\n    <noscript>`,
    );
}

/**
 * The route module's chunks as `<link rel="modulepreload">` and its CSS, if it has any of its own (since ADR 018 the
 * build makes one stylesheet, inlined in index.html), as `<link rel="stylesheet">` (Vite's manifest): the browser
 * fetches the chunks alongside the entry instead of after it, so the page is hydrated sooner.
 */
function routeAssets(root: string, template: string): (routeModule: string) => string {
  const manifestFile = path.join(root, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile)) return () => '';
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<
    string,
    { file: string; css?: string[]; imports?: string[]; isEntry?: boolean }
  >;
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry);
  const loaded = new Set<string>([...(entry ? [entry[0]] : []), ...(entry?.[1].imports ?? [])]);
  const linked = new Set(entry?.[1].css ?? []);
  const cache = new Map<string, string>();
  return (routeModule) => {
    const known = cache.get(routeModule);
    if (known !== undefined) return known;
    const scripts = new Set<string>();
    const styles = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || scripts.has(chunk.file)) return;
      if (!loaded.has(key)) scripts.add(chunk.file);
      for (const css of chunk.css ?? []) if (!linked.has(css)) styles.add(css);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    visit(routeModule);
    // index.html already lists the home page's chunks.
    const modules = [...scripts].filter((file) => !template.includes(`/${file}"`));
    const tags = [
      ...modules.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
      ...[...styles].map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
    ]
      .map((tag) => `    ${tag}\n`)
      .join('');
    cache.set(routeModule, tags);
    return tags;
  };
}
