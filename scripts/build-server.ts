import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

/*
 * The production server as one bundle (ADR 022): `dist/server/main.js`, built from `src/server/main.ts` with the
 * pure-JavaScript dependencies inside it. Node then reads one file instead of resolving ~900 modules (each resolution
 * reads the nearest package.json) and strips no TypeScript at start, so it starts sooner and holds less memory than
 * importing the sources (figures: docs/performance.md, "Process start").
 *
 *   node scripts/build-server.ts     # build it (part of `npm run build`)
 *
 * `npm run dev`, Vitest's in-process tests and the scripts keep running the TypeScript sources directly (ADR 003).
 */

const root = path.resolve(import.meta.dirname, '..');

/** The bundle, relative to the project root: what `npm start` and every test or bench that spawns the server run. */
export const SERVER_BUNDLE = 'dist/server/main.js';

/**
 * Left outside the bundle, loaded from node_modules at run time: PGlite (it loads its WebAssembly and data files by
 * URL), native code (sharp, pg-native), and the packages the server loads only on first use (mail, Stripe, Redis, the
 * mail templates) so a server at rest never holds them.
 */
const EXTERNAL = [
  '@electric-sql/pglite',
  '@electric-sql/pglite/*',
  '@react-email/*',
  'ioredis',
  'nodemailer',
  'pg-native',
  'pino-pretty',
  'sharp',
  'stripe',
];

/**
 * A CommonJS file bundled from node_modules that reads files beside itself (swagger-ui's static files) gets its own
 * installed directory as `__dirname`, found at run time from its package: a module in the bundle has no `__dirname`
 * of its own, and the bundle's would be dist/server.
 */
const ownDirname: esbuild.Plugin = {
  name: 'own-dirname',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.c?js$/ }, (args) => {
      const source = fs.readFileSync(args.path, 'utf8');
      if (!/\b__dirname\b/.test(source)) return undefined;
      const inPackage = /^(.*[\\/]node_modules[\\/])((?:@[^\\/]+[\\/])?[^\\/]+)[\\/](.*)$/.exec(args.path);
      if (!inPackage) return undefined;
      const [, , name = '', rest = ''] = inPackage;
      const packageName = name.split(path.sep).join('/');
      const subdirectory = path.dirname(rest).split(path.sep).join('/');
      const dirname = `__packageDirname(${JSON.stringify(packageName)}, ${JSON.stringify(subdirectory)})`;
      return { contents: source.replace(/\b__dirname\b/g, dirname), loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

/** Everything the bundle is made from: when one is newer than the bundle, it is rebuilt. */
const SOURCES = ['src/server', 'src/shared', 'package-lock.json', 'scripts/build-server.ts'];

export async function buildServerBundle(): Promise<void> {
  // Chunks of an earlier build would pile up beside the new ones.
  fs.rmSync(path.join(root, path.dirname(SERVER_BUNDLE)), { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['src/server/main.ts'],
    outdir: path.dirname(SERVER_BUNDLE),
    // main.ts imports the server with import(): split, main.js stays a few lines that turn on Node's compile cache
    // before the server's chunk is compiled (a cache turned on by the file being compiled cannot hold that file).
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    external: EXTERNAL,
    logLevel: 'warning',
    // CommonJS dependencies inside an ES module bundle still call require() for Node's built-ins.
    banner: {
      js: [
        "import { createRequire as __bundleRequire } from 'node:module';",
        "import { dirname as __dirnameOf, join as __joinPath } from 'node:path';",
        'const require = __bundleRequire(import.meta.url);',
        "const __packageDirname = (name, sub) => __joinPath(__dirnameOf(require.resolve(name + '/package.json')), sub);",
      ].join('\n'),
    },
    plugins: [ownDirname],
    legalComments: 'none',
    minifyWhitespace: true,
    // Stack traces point into the bundle; its source map leads back to the sources (NODE_OPTIONS=--enable-source-maps).
    sourcemap: 'linked',
    minifySyntax: true,
  });
}

/** The most recently modified file among `entries` (directories walked), or undefined when none exists. */
export function newestFile(entries: readonly string[]): { file: string; mtimeMs: number } | undefined {
  let newest: { file: string; mtimeMs: number } | undefined;
  const consider = (file: string) => {
    const stat = fs.statSync(path.join(root, file), { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(path.join(root, file))) consider(path.join(file, name));
    } else if (!newest || stat.mtimeMs > newest.mtimeMs) {
      newest = { file, mtimeMs: stat.mtimeMs };
    }
  };
  for (const entry of entries) consider(entry);
  return newest;
}

/** Why the bundle must be (re)built, or undefined when it is newer than everything it is made from. */
export function serverBundleStale(): string | undefined {
  const built = fs.statSync(path.join(root, SERVER_BUNDLE), { throwIfNoEntry: false });
  if (!built) return 'No server bundle yet: building it (npm run build:server)…';
  if ((newestFile(SOURCES)?.mtimeMs ?? 0) > built.mtimeMs) {
    return 'The server changed since its last build: rebuilding it (npm run build:server)…';
  }
  return undefined;
}

/**
 * Builds the bundle when it is missing or older than its sources: tests and benches that spawn the server call this
 * first, so they never run yesterday's server (a build takes about a second).
 */
export async function ensureServerBundle(): Promise<void> {
  if (serverBundleStale()) await buildServerBundle();
}

if (import.meta.main) await buildServerBundle();
