import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildServerBundle, newestFile, serverBundleStale } from './build-server.ts';

// `npm start` runs the server's bundle and serves the built SPA. Build them the first time, and again whenever their
// sources are newer than the build, so `npm start` never serves pages or runs a server older than the code beside
// it (a `git pull` that changed a page or a route).

const root = path.resolve(import.meta.dirname, '..');
const BUILD_DIR = 'dist/web';
/** Vite rewrites it on every build, so its mtime is the build's time stamp. */
const BUILD_STAMP = path.join(BUILD_DIR, 'index.html');
/** The server-rendering bundle `npm run build` writes beside the web build (ADR 015). */
const SERVER_BUNDLE = path.join('dist/ssr', 'entry-server.js');
/** Everything `vite build` reads; package-lock.json stands for the dependencies bundled into the pages. */
const SOURCES = ['src/web', 'src/shared', 'index.html', 'vite.config.ts', 'public', 'package-lock.json'];

/** Why the web app must be (re)built, in one line, or undefined when the build is current. */
function rebuildReason(): string | undefined {
  const built = fs.statSync(path.join(root, BUILD_STAMP), { throwIfNoEntry: false });
  if (!built) return 'No web build yet: building the shop pages once (npm run build)…';
  if (!fs.existsSync(path.join(root, SERVER_BUNDLE))) {
    return 'No server-rendering bundle yet: building the shop pages once (npm run build)…';
  }
  const newest = newestFile(SOURCES);
  if (newest && newest.mtimeMs > built.mtimeMs) {
    return `The web app changed since the last build (${newest.file} is newer): rebuilding it (npm run build)…`;
  }
  return undefined;
}

// A STATIC_DIR elsewhere is a build made and deployed on purpose (docs/operations.md): not ours to rebuild.
const staticDir = process.env.STATIC_DIR;
if (!staticDir || path.resolve(staticDir) === path.resolve(root, BUILD_DIR)) {
  const reason = rebuildReason();
  if (reason) {
    console.log(reason);
    execSync('npm run build', { cwd: root, stdio: 'inherit' });
  }
}
// The server's bundle is ours wherever the pages come from (ADR 022); `npm run build` above made it already.
const serverReason = serverBundleStale();
if (serverReason) {
  console.log(serverReason);
  await buildServerBundle();
}
