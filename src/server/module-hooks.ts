import { registerHooks } from 'node:module';

/**
 * A shortcut in Node's module resolution for drizzle-orm's own files (issue 15, item 6: a lean process).
 *
 * Node 24 works out the format of every module it resolves from the nearest package.json, and reads that file
 * afresh each time: drizzle-orm's is 179 KB (447 export entries) and the server loads about 450 of its files, so
 * starting the server parsed some 80 MB of JSON. The heap grew by ~160 MB that V8 then kept as resident memory
 * (measured: importing `drizzle-orm/node-postgres` raised RSS by 181 MB; with this hook by 18 MB). drizzle-orm's
 * package.json says `"type": "module"` and has no nested package.json, so a relative `.js` import from inside it is
 * an ES module in the same package: this answers that at once and leaves every other resolution to Node.
 */
export function registerModuleHooks(): void {
  const drizzle = new URL('.', import.meta.resolve('drizzle-orm')).href;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (
        context.parentURL?.startsWith(drizzle) &&
        (specifier.startsWith('./') || specifier.startsWith('../')) &&
        specifier.endsWith('.js')
      ) {
        const url = new URL(specifier, context.parentURL).href;
        if (url.startsWith(drizzle)) return { url, format: 'module', shortCircuit: true };
      }
      return nextResolve(specifier, context);
    },
  });
}
