import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync } from 'vite';

/**
 * The import boundaries of src/ (docs/contributing.md), checked by `npm run check`:
 * - src/shared is used by both sides and imports neither src/web nor src/server;
 * - src/web and src/server never import each other;
 * - inside src/web one direction only, shared code → features → app: lib/ and components/ import no feature and
 *   not the app, a feature imports no other feature and not the app.
 *
 * Biome's noRestrictedImports matches the import's text, and a relative path's text depends on how deep the importing
 * file sits ('../orders/x.ts' and '../../lib/x.ts' look alike to a pattern); this resolves every path first.
 * Static imports, re-exports and import() with a literal path all count; comments and strings do not (the files are
 * parsed, not searched).
 */

export interface Violation {
  /** The importing file, relative to the root, with forward slashes. */
  file: string;
  line: number;
  specifier: string;
  message: string;
}

/** Where a file sits: its layer, and for a feature its name. */
type Place =
  | { layer: 'shared' | 'server' | 'web-lib' | 'web-components' | 'web-app' | 'web-other' | 'outside' }
  | { layer: 'web-feature'; feature: string };

const SOURCE = /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

function placeOf(relative: string): Place {
  const parts = relative.split('/');
  if (parts[0] !== 'src') return { layer: 'outside' };
  if (parts[1] === 'shared') return { layer: 'shared' };
  if (parts[1] === 'server') return { layer: 'server' };
  if (parts[1] !== 'web') return { layer: 'outside' };
  // Only a folder counts as a feature: a file lying directly in features/ belongs to none.
  if (parts[2] === 'features' && parts.length > 4) return { layer: 'web-feature', feature: parts[3] ?? '' };
  if (parts[2] === 'lib') return { layer: 'web-lib' };
  if (parts[2] === 'components') return { layer: 'web-components' };
  // main.tsx is the app's entry: it composes the app, as app/ does.
  if (parts[2] === 'app' || parts[2] === 'main.tsx') return { layer: 'web-app' };
  return { layer: 'web-other' };
}

const isWeb = (place: Place) => place.layer.startsWith('web-');

/** Why `from` may not import `to`, or null when it may. */
export function boundaryRule(from: string, to: string): string | null {
  const source = placeOf(from);
  const target = placeOf(to);
  if (source.layer === 'shared' && (isWeb(target) || target.layer === 'server')) {
    return 'src/shared is used by the web app and the server, so it imports neither';
  }
  if (isWeb(source) && target.layer === 'server')
    return 'the web app does not import server code (share it in src/shared)';
  if (source.layer === 'server' && isWeb(target)) return 'the server does not import web code (share it in src/shared)';
  if (source.layer === 'web-feature' && target.layer === 'web-feature' && source.feature !== target.feature) {
    return (
      `features/${source.feature} imports features/${target.feature}: features do not import each other; ` +
      'move what both need to lib/ or components/, or compose them in app/'
    );
  }
  if (source.layer === 'web-feature' && target.layer === 'web-app') return 'a feature does not import the app layer';
  if ((source.layer === 'web-lib' || source.layer === 'web-components') && target.layer === 'web-feature') {
    return 'lib/ and components/ are shared by every feature, so they import none';
  }
  if ((source.layer === 'web-lib' || source.layer === 'web-components') && target.layer === 'web-app') {
    return 'lib/ and components/ do not import the app layer';
  }
  return null;
}

/** Every module path a file names in an import, a re-export or an import() with a literal path. */
export function importsOf(file: string, code: string): { specifier: string; offset: number }[] {
  const { module, errors } = parseSync(file, code);
  if (errors.length > 0) throw new Error(`${file} does not parse: ${errors[0]?.message ?? 'syntax error'}`);
  const found: { specifier: string; offset: number }[] = [];
  for (const entry of module.staticImports) {
    found.push({ specifier: entry.moduleRequest.value, offset: entry.moduleRequest.start });
  }
  for (const entry of module.staticExports) {
    for (const exported of entry.entries) {
      if (exported.moduleRequest) {
        found.push({ specifier: exported.moduleRequest.value, offset: exported.moduleRequest.start });
      }
    }
  }
  for (const entry of module.dynamicImports) {
    const text = code.slice(entry.moduleRequest.start, entry.moduleRequest.end);
    const literal = /^(['"`])([^'"`$]*)\1$/.exec(text);
    if (literal?.[2] !== undefined) found.push({ specifier: literal[2], offset: entry.moduleRequest.start });
  }
  return found;
}

function sourceFiles(directory: string): string[] {
  if (!fs.existsSync(directory)) return [];
  return fs
    .readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((name) => SOURCE.test(name) && !name.split(path.sep).includes('node_modules'))
    .map((name) => path.join(directory, name));
}

/** Checks every source file under `root`/src; an empty list means the boundaries hold. */
export function findViolations(root: string): Violation[] {
  const violations: Violation[] = [];
  const relative = (absolute: string) => path.relative(root, absolute).split(path.sep).join('/');
  for (const absolute of sourceFiles(path.join(root, 'src'))) {
    const file = relative(absolute);
    const code = fs.readFileSync(absolute, 'utf8');
    for (const { specifier, offset } of importsOf(absolute, code)) {
      // Packages are not ours to police; a path starting with / is the web root (Vite), i.e. the project root.
      let target: string;
      if (specifier.startsWith('.')) target = relative(path.resolve(path.dirname(absolute), specifier));
      else if (specifier.startsWith('/')) target = relative(path.join(root, specifier));
      else continue;
      const message = boundaryRule(file, target);
      if (message) {
        const line = code.slice(0, offset).split('\n').length;
        violations.push({ file, line, specifier, message });
      }
    }
  }
  return violations;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? '.');
  const violations = findViolations(root);
  for (const { file, line, specifier, message } of violations) {
    console.error(`${file}:${line}  imports '${specifier}': ${message}`);
  }
  if (violations.length > 0) {
    console.error(`\n${violations.length} import ${violations.length === 1 ? 'crosses' : 'cross'} a boundary.`);
    process.exitCode = 1;
  } else {
    console.log('Import boundaries hold.');
  }
}
