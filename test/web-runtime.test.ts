import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * ADR 024: the browser runs React 19 and React DOM, the renderer the server renders with and the component tests run
 * on. Read from the production build (`npm run build` makes dist/web): the scripts the built home page loads (its
 * module script, its modulepreloads and every chunk they import statically) hold React DOM and nothing of Preact.
 */

const STATIC_DIR = path.resolve('dist/web');
const reactDomVersion = (createRequire(import.meta.url)('react-dom/package.json') as { version: string }).version;

/** The chunks index.html names, and every chunk those import statically (`from"./x.js"`, `import"./x.js"`). */
function homePageScripts(): Map<string, string> {
  const html = fs.readFileSync(path.join(STATIC_DIR, 'index.html'), 'utf8');
  const named = [
    ...html.matchAll(/<script type="module"[^>]* src="\/([^"]+)"/g),
    ...html.matchAll(/<link rel="modulepreload"[^>]* href="\/([^"]+)"/g),
  ].map(([, file]) => file ?? '');
  const scripts = new Map<string, string>();
  const visit = (file: string) => {
    if (scripts.has(file)) return;
    const code = fs.readFileSync(path.join(STATIC_DIR, file), 'utf8');
    scripts.set(file, code);
    for (const [, imported] of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) {
      visit(path.posix.join(path.posix.dirname(file), imported ?? ''));
    }
  };
  for (const file of named) visit(file);
  return scripts;
}

describe("the built home page's JavaScript", () => {
  const scripts = homePageScripts();
  const code = [...scripts.values()].join('\n');

  it('starts from one module script', () => {
    const html = fs.readFileSync(path.join(STATIC_DIR, 'index.html'), 'utf8');
    expect([...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag)).toEqual([
      expect.stringMatching(/^<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js">$/),
    ]);
    expect(scripts.size).toBeGreaterThan(1);
  });

  it('holds React DOM, the version package.json installs', () => {
    // React DOM's client registers itself with the DevTools hook under its package name and version, and marks each
    // element it renders or hydrates with its fiber.
    expect(code).toContain(`version:\`${reactDomVersion}\`,rendererPackageName:\`react-dom\``);
    expect(code).toContain('__reactFiber$');
  });

  it('holds nothing of Preact', () => {
    expect(code).not.toMatch(/preact/i);
    for (const file of fs.readdirSync(path.join(STATIC_DIR, 'assets'))) {
      if (!file.endsWith('.js')) continue;
      expect(fs.readFileSync(path.join(STATIC_DIR, 'assets', file), 'utf8'), file).not.toMatch(/preact/i);
    }
  });
});
