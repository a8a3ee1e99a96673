import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { PurgeCSS } from 'purgecss';
import { defineConfig, type Plugin } from 'vite';
import { SERVER_RENDERED_ROUTE_MODULES } from './src/shared/server-rendering.ts';

/**
 * Text files worth compressing. index.html too since it carries the app's stylesheet (ADR 018): the server sends it
 * (`no-cache`, static-spa.ts) for the pages it does not render.
 */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|xml|webmanifest|html)$/;

/**
 * Writes `file.br` (quality 11) and `file.gz` (level 9) beside every compressible file of the build, once, at build
 * time. @fastify/static with `preCompressed: true` sends them as they are: maximum compression that would be far
 * too slow per request, and no compression work at all on the server (on-the-fly brotli of the main chunk would cost
 * CPU on every request).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'redline-precompress',
    apply: 'build',
    configResolved(config) {
      // The server-rendering bundle (dist/ssr) is read by Node from disk, never sent to a browser.
      outDir = config.build.ssr ? '' : path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      if (!outDir) return;
      // closeBundle also runs after a failed build, when there may be no output: reading it would throw ENOENT and
      // hide the build's own error.
      if (!fs.existsSync(outDir)) return;
      const walk = (dir: string): string[] =>
        fs
          .readdirSync(dir, { withFileTypes: true })
          .flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
      // The async zlib calls run on libuv's thread pool: every core works, the build waits ~2 s, not ~10 s.
      const brotli = promisify(zlib.brotliCompress);
      const gzip = promisify(zlib.gzip);
      const jobs = walk(outDir)
        .filter((file) => COMPRESSIBLE.test(file))
        .map(async (file) => {
          const content = await fs.promises.readFile(file);
          // @fastify/compress leaves bodies under 1 KiB alone too.
          if (content.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzip(content, { level: 9 }),
          ]);
          if (br.length < content.length) await fs.promises.writeFile(`${file}.br`, br);
          if (gz.length < content.length) await fs.promises.writeFile(`${file}.gz`, gz);
        });
      await Promise.all(jobs);
    },
  };
}

/**
 * The modules the browser loads for a first visit to the home page, as two chunks instead of dozens:
 * `app` for what the entry (`main.tsx`) imports statically, loaded by every page, and `home` for what the home route
 * adds. Left to itself the bundler makes a chunk of every set of modules shared by a different set of routes, and the
 * home page loaded dozens of tiny files (each a request with its own headers, each a module to compile; ADR 021). The
 * sets are the static import graphs, read once the build has parsed every module; dynamic imports stay their own
 * chunks (the zod schemas, the other routes, the toast container).
 */
function firstLoadGraph(entry: string, homeRoute: string) {
  const inEntry = new Set<string>();
  const inHome = new Set<string>();
  let serverBundle = false;
  const plugin: Plugin = {
    name: 'redline-first-load-graph',
    apply: 'build',
    configResolved(config) {
      serverBundle = Boolean(config.build.ssr);
    },
    buildEnd(error) {
      // The server bundle (`--ssr`) has no browser entry and one chunk.
      if (serverBundle || error) return;
      const ids = [...this.getModuleIds()];
      const walk = (suffix: string, into: Set<string>, skip: Set<string>) => {
        const start = ids.find((id) => id.endsWith(suffix));
        if (!start) throw new Error(`firstLoadGraph: no module ${suffix}`);
        const stack = [start];
        while (stack.length > 0) {
          const id = stack.pop() as string;
          if (into.has(id) || skip.has(id)) continue;
          into.add(id);
          stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
      };
      walk(entry, inEntry, new Set());
      walk(homeRoute, inHome, inEntry);
      // The entry module stays the entry chunk: it awaits the home route's module (prepareMatchedRoutes), which imports
      // `app`; were the entry inside `app`, that chunk would wait for itself.
      for (const id of inEntry) if (id.endsWith(entry)) inEntry.delete(id);
    },
  };
  // Stylesheets are the one stylesheet's business (inlineStylesheet); node_modules in the entry's graph go to vendor.
  const script = (id: string) => !/\.css(\?|$)/.test(id);
  return {
    plugin,
    app: (id: string) => script(id) && inEntry.has(id) && !/node_modules/.test(id),
    home: (id: string) => script(id) && inHome.has(id),
  };
}

const firstLoad = firstLoadGraph('src/web/main.tsx', 'src/web/app/routes/home-page.tsx');

/**
 * Chromium's explicit compile hint (`//# allFunctionsCalledOnLoad`, Chrome 136+; other browsers read a comment) on the
 * chunks a server-rendered page runs as it loads (the entry, its static imports, and each such page's route module
 * with its static imports): V8 compiles their functions while it streams the file, off the main thread, instead of
 * each function on its first call, which was a large part of the home page's hydration task (ADR 021). Not on
 * other chunks: eager compilation of code that may never run would be waste.
 */
function compileHints(routeModules: readonly string[]): Plugin {
  return {
    name: 'redline-compile-hints',
    apply: 'build',
    generateBundle: {
      // After Vite's own generateBundle, which puts `const __vite__mapDeps=…` at the top of a chunk with dynamic
      // imports: V8 reads the hint only before the file's first code (its scanner's `saw_non_comment_`), so a hint
      // under that line was ignored (the entry's `app` and `home` chunks ran without it until 2026-11-27).
      order: 'post',
      handler(_options, bundle) {
        const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
        const hinted = new Set<string>();
        const visit = (fileName: string) => {
          if (hinted.has(fileName)) return;
          hinted.add(fileName);
          for (const imported of chunks.find((chunk) => chunk.fileName === fileName)?.imports ?? []) visit(imported);
        };
        for (const chunk of chunks) {
          const route = routeModules.some((module) => chunk.facadeModuleId?.endsWith(module));
          if (chunk.isEntry || route) visit(chunk.fileName);
        }
        for (const chunk of chunks) {
          if (hinted.has(chunk.fileName)) chunk.code = `//# allFunctionsCalledOnLoad\n${chunk.code}`;
        }
      },
    },
  };
}

/**
 * `<link rel="modulepreload">` in index.html for the lazy route module `entry` and every chunk it imports statically.
 * Vite preloads only the entry's own imports; a lazy route's chunks are found only once the entry has downloaded and
 * run, one round trip and one script evaluation later. The home page is where most visits start, and most of its
 * chunks (zod, TanStack Query's hooks, the part card, the query states) are the ones every other data page needs
 * too; only a small part of it (the home page itself, Modal) is home-only.
 */
function preloadRoute(entry: string): Plugin {
  return {
    name: 'redline-preload-route',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return;
        const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
        const route = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(entry));
        const main = chunks.find((chunk) => chunk.isEntry);
        if (!route || !main) throw new Error(`preloadRoute: no chunk for ${entry}`);
        const alreadyLoaded = new Set([main.fileName, ...main.imports]);
        const wanted = new Set<string>();
        const visit = (fileName: string) => {
          if (wanted.has(fileName) || alreadyLoaded.has(fileName)) return;
          wanted.add(fileName);
          for (const imported of chunks.find((chunk) => chunk.fileName === fileName)?.imports ?? []) visit(imported);
        };
        visit(route.fileName);
        return [...wanted].map((fileName) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: '', href: `/${fileName}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/**
 * ADR 015: `vite build --ssr src/web/entry-server.tsx --outDir dist/ssr` (part of `npm run build`) builds the
 * server-rendering bundle with this same config; Node reads it from disk, so it needs neither the public files nor a
 * manifest.
 */
/**
 * Every `import … from 'zod'` of the browser build goes through `src/web/zod-config.ts`, which switches zod to jitless
 * mode and re-exports it. Zod probes `new Function('')` when it builds an object schema unless jitless is set, and
 * under our CSP (no 'unsafe-eval') that probe is a CSP violation Lighthouse reports (best practices 96). Importing
 * the config first from main.tsx was not enough: chunks the entry imports (e.g. the one of `shared/cursor.ts`) run
 * before the entry's own code and built their schemas before the config. Through this module, ES module order
 * guarantees the config runs before any module that uses zod.
 */
function zodJitlessFirst(): Plugin {
  let zodConfig = '';
  return {
    name: 'redline-zod-jitless-first',
    apply: 'build',
    enforce: 'pre',
    configResolved(config) {
      // The server-rendering bundle runs in Node, where no CSP applies and the compiled validators are faster.
      zodConfig = config.build.ssr ? '' : path.resolve(config.root, 'src/web/zod-config.ts');
    },
    resolveId(source, importer) {
      if (!zodConfig || source !== 'zod' || !importer || importer === zodConfig) return null;
      return zodConfig;
    },
  };
}

/**
 * Bootstrap's stylesheet cut down to the rules the app can use (ADR 018): PurgeCSS keeps a rule when a class, tag or
 * attribute of its selector appears in index.html or in the web app's sources, or matches the safelist. The safelist
 * is every class react-bootstrap builds at run time from a prop (`btn-${variant}`, `col-${breakpoint}-${span}`,
 * `spinner-${animation}-${size}`, …) or sets from a transition (`show`, `fade`, `collapsing`, `modal-open`), per
 * component the app imports; a component newly imported from react-bootstrap needs its prefix here.
 */
const THEME = 'primary|secondary|success|danger|warning|info|light|dark';
const BREAKPOINT = 'sm|md|lg|xl|xxl';
const BOOTSTRAP_SAFELIST = {
  standard: [
    /^(html|body)$/,
    // Transitions (Fade, Collapse, Modal, Offcanvas) and states.
    /^(show|showing|hiding|fade|collapse|collapsing|active|disabled|visually-hidden(-focusable)?)$/,
    new RegExp(`^btn(-(outline-)?(${THEME}|link)|-sm|-lg|-close(-white)?)?$`),
    new RegExp(`^alert(-(${THEME}|dismissible|heading|link))?$`),
    new RegExp(`^(bg|text|border|text-bg)-(${THEME}|white|black|body)$`),
    /^badge$/,
    /^card(-(body|title|subtitle|text|header|footer|img|img-top|img-bottom|link))?$/,
    // Grid: <Col md={6}>, <Row xs={1}> …
    /^(container|container-fluid|row|col)$/,
    // `<Col md>` is `col-md`, `<Col md={6}>` `col-md-6`, `<Col xs="auto">` `col-auto`.
    new RegExp(`^(col|row-cols)(-(${BREAKPOINT}))?(-(\\d+|auto))?$`),
    /^form-(label|control|control-sm|control-lg|control-plaintext|select|select-sm|select-lg|check|check-input|check-label|check-inline|switch|text|group)$/,
    /^(is-invalid|is-valid|invalid-feedback|valid-feedback)$/,
    /^modal(-(dialog|content|header|title|body|footer|backdrop|static|sm|lg|xl|dialog-centered|dialog-scrollable))?$/,
    /^nav(-(link|item|pills|tabs|fill|justified))?$/,
    /^navbar(-(expand-lg|dark|light|brand|nav|toggler|toggler-icon|collapse|text))?$/,
    /^(sticky-top|fixed-top)$/,
    /^offcanvas(-(lg|start|end|header|title|body|backdrop))?$/,
    /^placeholder(-(glow|wave|xs|sm|lg))?$/,
    /^spinner-(border|grow)(-sm)?$/,
    /^table(-(striped|bordered|borderless|hover|sm|responsive|responsive-lg|dark|light|active))?$/,
    /^list-group(-(item|flush|item-action))?$/,
    // vehicles-admin-page.tsx: `pt-${stackBelow}-4 mt-${stackBelow}-2`.
    /^(pt|mt)-(sm|md)-\d$/,
  ],
};

function purgeBootstrap(): Plugin {
  return {
    name: 'redline-purge-bootstrap',
    apply: 'build',
    enforce: 'pre',
    async transform(code, id) {
      if (!id.endsWith('bootstrap/dist/css/bootstrap.min.css')) return null;
      const [result] = await new PurgeCSS().purge({
        content: ['index.html', 'src/web/**/*.{ts,tsx}'],
        css: [{ raw: code }],
        safelist: BOOTSTRAP_SAFELIST,
        // Custom properties stay (Bootstrap's rules read each other's), so do the keyframes the spinners use.
        variables: false,
        keyframes: false,
        fontFace: false,
      });
      return { code: result?.css ?? code, map: null };
    },
  };
}

/**
 * The app's one stylesheet (`build.cssCodeSplit: false`) goes into index.html's <head> as a <style> element instead of
 * a <link>: a page paints with its first response, with no render-blocking request (LCP; ADR 018). The CSP
 * (`style-src 'self'`) allows that one element by its hash: the build writes `'sha256-…'` into
 * `.vite/inline-style-hashes.json` (not served: a dot directory), which the server reads into the header.
 */
function inlineStylesheet(): Plugin {
  let outDir = '';
  const hashes: string[] = [];
  return {
    name: 'redline-inline-stylesheet',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.ssr ? '' : path.resolve(config.root, config.build.outDir);
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!outDir || !ctx.bundle) return html;
        const bundle = ctx.bundle;
        return html.replace(/\s*<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (_tag, fileName: string) => {
          const asset = bundle[fileName];
          if (asset?.type !== 'asset') throw new Error(`inlineStylesheet: no asset ${fileName}`);
          // A `</style` inside the CSS would end the element early; CSS never needs it.
          const css = String(asset.source).replaceAll('</style', '<\\/style');
          hashes.push(`'sha256-${crypto.createHash('sha256').update(css).digest('base64')}'`);
          return `\n    <style>${css}</style>`;
        });
      },
    },
    writeBundle() {
      if (!outDir) return;
      fs.mkdirSync(path.join(outDir, '.vite'), { recursive: true });
      fs.writeFileSync(path.join(outDir, '.vite', 'inline-style-hashes.json'), `${JSON.stringify(hashes)}\n`);
    },
  };
}

function serverRenderingBundle(): Plugin {
  let serverBundleBuild = false;
  return {
    name: 'redline-server-rendering-bundle',
    configResolved: (config) => {
      serverBundleBuild = Boolean(config.build.ssr);
    },
    // Dependencies bundled in: several (react-bootstrap's `react-bootstrap/Button`) are directory imports that
    // Vite resolves and Node's ES module loader refuses. One file: a running server never imports a route chunk
    // that a rebuild has since replaced.
    config: (_config, env) =>
      env.isSsrBuild
        ? {
            publicDir: false,
            build: { manifest: false, rolldownOptions: { output: { codeSplitting: false } } },
            ssr: { noExternal: true },
          }
        : undefined,
    // ASCII only: V8 holds a module's source for as long as the module lives, and one character outside Latin-1
    // (an em dash, an arrow) makes it a two-byte string, twice the file's size in the server's heap (ADR 022).
    // Escaping code units is exact in strings, templates, regular expressions, identifiers and comments; only a
    // String.raw template would read the escape, and the bundle has none.
    // In generateBundle: renderChunk is followed by Vite's own re-printing of the code, which writes the characters back.
    generateBundle: (_options, bundle) => {
      if (!serverBundleBuild) return;
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk') {
          output.code = output.code.replace(
            /[\u0080-\uffff]/g,
            (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`,
          );
        }
      }
    },
  };
}

export default defineConfig({
  plugins: [
    zodJitlessFirst(),
    firstLoad.plugin,
    compileHints(Object.values(SERVER_RENDERED_ROUTE_MODULES)),
    purgeBootstrap(),
    react(),
    precompress(),
    preloadRoute('src/web/app/routes/home-page.tsx'),
    serverRenderingBundle(),
    inlineStylesheet(),
  ],
  publicDir: 'public',
  build: {
    outDir: 'dist/web',
    // Which CSS each route module needs, so a server-rendered page links its styles from the start.
    manifest: true,
    emptyOutDir: true,
    sourcemap: false,
    // VITE_PROFILE_BUILD=1: readable function names in a browser CPU profile (bench/page-trace.ts, PAGE_TRACE_PROFILE).
    minify: process.env.VITE_PROFILE_BUILD !== '1',
    // One stylesheet for the whole app, inlined into index.html (inlineStylesheet): no page waits for a CSS request,
    // and a lazy route brings no stylesheet of its own.
    cssCodeSplit: false,
    // Never inline assets as data: URLs into JS; the CSP and caching both prefer real files.
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // What every page needs before its first paint, in one file instead of a handful of small ones (each
              // file costs a request and its response headers). Libraries change only on a dependency
              // upgrade, so this chunk stays in the browser's cache (its name is a content hash) across releases
              // of the shop; the app's own code is the small entry chunk.
              name: 'vendor',
              test: /node_modules[\\/]/,
              tags: ['$initial'],
              priority: 30,
            },
            // The app's own modules every page loads, then the ones the home page adds (firstLoadGraph).
            { name: 'app', test: firstLoad.app, priority: 20 },
            { name: 'home', test: firstLoad.home, priority: 10 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    // In development the API runs on its own port; the browser sees one origin, as in production.
    proxy: { '/api': 'http://localhost:3000' },
  },
});
