import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync } from 'vite';

/**
 * The architecture rules of src/, checked by `npm run check` (ADR 027; docs/contributing.md):
 * - boundary: src/shared imports neither src/web nor src/server; those two never import each other; inside src/web
 *   one direction only, shared code → features → app (lib/ and components/ import no feature and not the app, a
 *   feature imports no other feature and not the app);
 * - module-port: code in src/server/modules/<a> imports from another module only its port (ports.ts, *-port.ts);
 * - table-owner: module code touches only the tables its own schema.ts / *-schema.ts defines, whether imported or
 *   named in SQL, and src/server/db/schema.ts re-exports every module's schema (drizzle-kit reads only that);
 * - import-cycle: no cycle of imports anywhere in src, type-only imports included.
 *
 * Biome's noRestrictedImports matches the import's text, and a relative path's text depends on how deep the importing
 * file sits ('../orders/x.ts' and '../../lib/x.ts' look alike to a pattern); this resolves every path first.
 * Static imports, re-exports and import() with a literal path all count; comments and strings do not (the files are
 * parsed, not searched).
 */

/** Which rule an import or a statement breaks. */
export type Rule = 'boundary' | 'module-port' | 'table-owner' | 'import-cycle';

export interface Violation {
  rule: Rule;
  /** The offending file, relative to the root, with forward slashes. */
  file: string;
  line: number;
  /** What it names: the import's path, or for a table the table's name, or for a cycle the first import of it. */
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

/** One import, re-export or import() with a literal path, as written. */
export interface ImportEntry {
  specifier: string;
  offset: number;
  /** The names imported; '*' for a namespace import or `export *`. */
  names: string[];
}

/** Every module path a file names in an import, a re-export or an import() with a literal path. */
export function importsOf(file: string, code: string): ImportEntry[] {
  return importsOfParsed(parse(file, code).module, code);
}

type Parsed = ReturnType<typeof parseSync>;

function parse(file: string, code: string): Parsed {
  const parsed = parseSync(file, code);
  if (parsed.errors.length > 0) {
    throw new Error(`${file} does not parse: ${parsed.errors[0]?.message ?? 'syntax error'}`);
  }
  return parsed;
}

function importsOfParsed(module: Parsed['module'], code: string): ImportEntry[] {
  const found: ImportEntry[] = [];
  for (const entry of module.staticImports) {
    found.push({
      specifier: entry.moduleRequest.value,
      offset: entry.moduleRequest.start,
      names: entry.entries.map((one) => (one.importName.kind === 'Name' ? (one.importName.name ?? '') : '*')),
    });
  }
  for (const entry of module.staticExports) {
    for (const exported of entry.entries) {
      if (exported.moduleRequest) {
        found.push({
          specifier: exported.moduleRequest.value,
          offset: exported.moduleRequest.start,
          names: [exported.importName.kind === 'Name' ? (exported.importName.name ?? '') : '*'],
        });
      }
    }
  }
  for (const entry of module.dynamicImports) {
    const text = code.slice(entry.moduleRequest.start, entry.moduleRequest.end);
    const literal = /^(['"`])([^'"`$]*)\1$/.exec(text);
    if (literal?.[2] !== undefined) {
      found.push({ specifier: literal[2], offset: entry.moduleRequest.start, names: ['*'] });
    }
  }
  return found;
}

function sourceFiles(directory: string): string[] {
  if (!fs.existsSync(directory)) return [];
  return fs
    .readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((name) => SOURCE.test(name) && !name.split(path.sep).includes('node_modules'))
    .map((name) => path.join(directory, name))
    .sort();
}

// ---- Server modules: ports, tables, cycles (ADR 027).

const MODULES = 'src/server/modules/';
/** Every module's tables, re-exported for drizzle-kit and for code outside the modules. */
const ALL_TABLES = 'src/server/db/schema.ts';

/** The module a file belongs to (`src/server/modules/<name>/…`), or undefined. */
export function moduleOf(file: string): string | undefined {
  if (!file.startsWith(MODULES)) return undefined;
  const rest = file.slice(MODULES.length).split('/');
  return rest.length > 1 ? rest[0] : undefined;
}

const baseName = (file: string) => file.slice(file.lastIndexOf('/') + 1);

/** A module's declared surface for other modules: its `ports.ts` and `*-port.ts` files. */
export const isPort = (file: string) => /^(?:ports|.+-port)\.ts$/.test(baseName(file));

/** A module's table definitions: `schema.ts` and `*-schema.ts`; what they define, the module owns. */
export const isSchema = (file: string) => /^(?:schema|.+-schema)\.ts$/.test(baseName(file));

/** Tests and their helpers set up whole scenarios across modules; the module rules govern the code that ships. */
export const isTestCode = (file: string) =>
  /\.test\.tsx?$/.test(file) || /test-helpers\.tsx?$/.test(file) || /\.fixture\.tsx?$/.test(file);

/** Why module code in `from` may not import `to`, or null when it may. Files outside the modules are not judged. */
export function modulePortRule(from: string, to: string): string | null {
  const source = moduleOf(from);
  const target = moduleOf(to);
  if (!source || !target || source === target || isTestCode(from)) return null;
  if (isPort(to)) return null;
  // A foreign key names the other module's table; only a schema file may, and only another schema file.
  if (isSchema(from) && isSchema(to)) return null;
  const what = /-repository\.ts$/.test(to) ? "another module's repository" : `a file of ${target} that is not its port`;
  return (
    `modules/${source} imports ${what} (${to.slice(MODULES.length)}): a module reaches another only through ` +
    `that module's ports.ts or *-port.ts, or is handed it in src/server/services.ts`
  );
}

/** A table: the module whose schema file defines it, and its name in the database. */
interface Table {
  module: string;
  name: string;
}

/** `export const parts = pgTable('parts', …)`: every table a schema file defines, by export name. */
export function tablesDefinedIn(code: string): { exportName: string; name: string }[] {
  const found: { exportName: string; name: string }[] = [];
  for (const match of code.matchAll(/export\s+const\s+(\w+)\s*=\s*pgTable\(\s*['"]([\w]+)['"]/g)) {
    found.push({ exportName: match[1] ?? '', name: match[2] ?? '' });
  }
  return found;
}

/** The tables a statement names after FROM, JOIN, INTO, UPDATE, TABLE or TRUNCATE. */
export function tablesNamedInSql(text: string): string[] {
  const names: string[] = [];
  const pattern = /\b(?:from|join|into|update|table|truncate)\s+(?:only\s+)?(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?/gi;
  for (const match of text.matchAll(pattern)) names.push((match[1] ?? '').toLowerCase());
  return names;
}

type TemplateNode = { quasis?: { value: { raw: string } }[] };

/** A template's text, each interpolation as `?` (it is a value or another fragment, never a table's name here). */
const templateText = (template: TemplateNode) => (template.quasis ?? []).map((part) => part.value.raw).join(' ? ');

/** The text of every sql`…` template and sql.raw('…') in a parsed file, with where it starts. */
function sqlTexts(program: unknown): { text: string; offset: number }[] {
  const found: { text: string; offset: number }[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown> & { type?: string; start?: number };
    if (record.type === 'TaggedTemplateExpression') {
      const tag = record.tag as { type?: string; name?: string };
      if (tag.type === 'Identifier' && tag.name === 'sql') {
        found.push({ text: templateText(record.quasi as TemplateNode), offset: record.start ?? 0 });
      }
    }
    if (record.type === 'CallExpression') {
      const callee = record.callee as { type?: string; object?: { name?: string }; property?: { name?: string } };
      const argument = (record.arguments as ({ type?: string; value?: unknown } & TemplateNode)[] | undefined)?.[0];
      if (callee.type === 'MemberExpression' && callee.object?.name === 'sql' && callee.property?.name === 'raw') {
        if (argument?.type === 'Literal' && typeof argument.value === 'string') {
          found.push({ text: argument.value, offset: record.start ?? 0 });
        } else if (argument?.type === 'TemplateLiteral') {
          found.push({ text: templateText(argument), offset: record.start ?? 0 });
        }
      }
    }
    for (const [key, value] of Object.entries(record)) {
      if (key !== 'type' && value !== null && typeof value === 'object') visit(value);
    }
  };
  visit(program);
  return found;
}

/** A table a module's file may touch though another module owns it, and why. */
export interface SharedTable {
  file: string;
  table: string;
  why: string;
}

/**
 * The declared exceptions to table ownership, each with its reason. `npm run check` also reports an entry whose file
 * no longer touches the table, so the list cannot outlive its reasons.
 */
export const SHARED_TABLES: readonly SharedTable[] = [
  {
    file: 'src/server/modules/orders/order-repository.ts',
    table: 'parts',
    why: "ADR 006's documented exception: an order and the stock it reserves are written by one guarded statement",
  },
];

const tableMessage = (module: string, table: Table, how: string) =>
  `modules/${module} ${how} table ${table.name}, which modules/${table.module} owns: ask that module through its ` +
  `port (a module's tables are the ones its schema.ts or *-schema.ts defines)`;

/**
 * The files that import one another in a circle, one group per tangle (Tarjan's strongly connected components), each
 * with one concrete cycle through its first file.
 */
function cyclesOf(graph: Map<string, string[]>): { cycle: string[]; group: string[] }[] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || (graph.get(node) ?? []).includes(node)) groups.push(group.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  // Name one concrete cycle per group: the shortest way from its first file back to itself.
  return groups.map((group) => ({ cycle: shortestCycle(graph, group), group }));
}

/** The shortest way from a group's first file back to itself, through the group's files. */
function shortestCycle(graph: Map<string, string[]>, group: string[]): string[] {
  const members = new Set(group);
  const start = group[0] ?? '';
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() ?? '';
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        for (let at = previous.get(node); at !== undefined; at = previous.get(at)) path.unshift(at);
        return path[0] === start ? path : [start, ...path];
      }
      if (!previous.has(next) && next !== start) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return group;
}

/** Where an import points, relative to the root; undefined for a package. A path starting with / is the web root. */
function targetOf(root: string, absolute: string, specifier: string): string | undefined {
  let target: string;
  if (specifier.startsWith('.')) target = path.resolve(path.dirname(absolute), specifier);
  else if (specifier.startsWith('/')) target = path.join(root, specifier);
  else return undefined;
  if (!fs.existsSync(target) || fs.statSync(target).isDirectory()) {
    const candidates = ['.ts', '.tsx', '/index.ts', '/index.tsx'].map((ending) => target + ending);
    target = candidates.find((candidate) => fs.existsSync(candidate)) ?? target;
  }
  return path.relative(root, target).split(path.sep).join('/');
}

/** Checks every source file under `root`/src; an empty list means every rule holds. */
export function findViolations(root: string, sharedTables: readonly SharedTable[] = []): Violation[] {
  const violations: Violation[] = [];
  const shared = new Set(sharedTables.map(({ file, table }) => `${file} ${table}`));
  const sharedUsed = new Set<string>();
  /** Whether `file` may touch `table` though another module owns it (and notes that the exception is used). */
  const mayShare = (file: string, table: Table) => {
    const key = `${file} ${table.name}`;
    if (!shared.has(key)) return false;
    sharedUsed.add(key);
    return true;
  };
  const files = sourceFiles(path.join(root, 'src')).map((absolute) => {
    const file = path.relative(root, absolute).split(path.sep).join('/');
    const code = fs.readFileSync(absolute, 'utf8');
    const parsed = parse(absolute, code);
    const imports = importsOfParsed(parsed.module, code).map((entry) => ({
      ...entry,
      target: targetOf(root, absolute, entry.specifier),
    }));
    return { file, code, parsed, imports };
  });
  const lineAt = (code: string, offset: number) => code.slice(0, offset).split('\n').length;

  // Who owns which table, by export name and by name in the database.
  const tablesByExport = new Map<string, Table>();
  const tablesByName = new Map<string, Table>();
  for (const { file, code } of files) {
    const module = moduleOf(file);
    if (!module || !isSchema(file)) continue;
    for (const { exportName, name } of tablesDefinedIn(code)) {
      tablesByExport.set(exportName, { module, name });
      tablesByName.set(name, { module, name });
    }
  }
  const schemaFiles = new Set(files.filter(({ file }) => moduleOf(file) && isSchema(file)).map(({ file }) => file));
  // drizzle-kit reads src/server/db/schema.ts only: a module schema it does not re-export would get no migration.
  const allTables = files.find(({ file }) => file === ALL_TABLES);
  if (allTables) {
    const exported = new Set(allTables.imports.map(({ target }) => target));
    for (const file of schemaFiles) {
      if (exported.has(file)) continue;
      violations.push({
        rule: 'table-owner',
        file: ALL_TABLES,
        line: 1,
        specifier: file,
        message: `does not re-export ${file}: drizzle-kit reads only this file, so those tables would get no migration`,
      });
    }
  }
  schemaFiles.add(ALL_TABLES);

  const graph = new Map<string, string[]>();
  for (const { file, code, parsed, imports } of files) {
    const module = moduleOf(file);
    const judged = module !== undefined && !isTestCode(file) && !isSchema(file);
    const edges: string[] = [];
    graph.set(file, edges);
    for (const { specifier, offset, names, target } of imports) {
      if (target === undefined) continue;
      const line = lineAt(code, offset);
      const boundary = boundaryRule(file, target);
      if (boundary) violations.push({ rule: 'boundary', file, line, specifier, message: boundary });
      const port = modulePortRule(file, target);
      if (port) violations.push({ rule: 'module-port', file, line, specifier, message: port });
      if (judged && schemaFiles.has(target)) {
        for (const name of names) {
          if (name === '*') {
            violations.push({
              rule: 'table-owner',
              file,
              line,
              specifier,
              message: `modules/${module} imports every table at once: import its own tables by name`,
            });
            continue;
          }
          const table = tablesByExport.get(name);
          if (table && table.module !== module && !mayShare(file, table)) {
            violations.push({
              rule: 'table-owner',
              file,
              line,
              specifier: table.name,
              message: tableMessage(module, table, 'imports'),
            });
          }
        }
      }
      // Type-only imports count: a type borrowed back from a file that imports you ties the two together as firmly.
      if (target.startsWith('src/')) edges.push(target);
    }
    if (judged) {
      for (const { text, offset } of sqlTexts(parsed.program)) {
        for (const name of new Set(tablesNamedInSql(text))) {
          const table = tablesByName.get(name);
          if (table && table.module !== module && !mayShare(file, table)) {
            violations.push({
              rule: 'table-owner',
              file,
              line: lineAt(code, offset),
              specifier: table.name,
              message: tableMessage(module, table, 'names in SQL'),
            });
          }
        }
      }
    }
  }

  for (const { file, table } of sharedTables) {
    if (sharedUsed.has(`${file} ${table}`)) continue;
    violations.push({
      rule: 'table-owner',
      file,
      line: 1,
      specifier: table,
      message: `listed in SHARED_TABLES for table ${table}, which it no longer touches: remove the entry`,
    });
  }

  const sources = new Map(files.map((one) => [one.file, one]));
  for (const { cycle, group } of cyclesOf(graph)) {
    const [first = '', second = first] = cycle;
    const source = sources.get(first);
    const entry = source?.imports.find((one) => one.target === second);
    violations.push({
      rule: 'import-cycle',
      file: first,
      line: source && entry ? lineAt(source.code, entry.offset) : 1,
      specifier: entry?.specifier ?? second,
      message:
        `import cycle: ${[...cycle, first].join(' → ')}` +
        (group.length > cycle.length ? ` (one of the cycles among ${group.join(', ')})` : ''),
    });
  }
  return violations;
}

const RULE_NAMES: Record<Rule, string> = {
  boundary: 'import boundaries',
  'module-port': 'module ports',
  'table-owner': 'table ownership',
  'import-cycle': 'import cycles',
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? '.');
  // The declared exceptions name this repository's files; another tree (a fixture) is checked without them.
  const ours = root === path.resolve(import.meta.dirname, '..');
  const violations = findViolations(root, ours ? SHARED_TABLES : []);
  for (const { rule, file, line, specifier, message } of violations) {
    // The other rules' messages name what was imported or touched; a boundary's says only why.
    const what = rule === 'boundary' ? `imports '${specifier}': ` : '';
    console.error(`${file}:${line}  [${rule}] ${what}${message}`);
  }
  if (violations.length > 0) {
    const counts = Object.entries(RULE_NAMES)
      .map(([rule, name]) => [name, violations.filter((one) => one.rule === rule).length] as const)
      .filter(([, count]) => count > 0)
      .map(([name, count]) => `${name} ${count}`);
    console.error(
      `\n${violations.length} ${violations.length === 1 ? 'violation' : 'violations'}: ${counts.join(', ')}.`,
    );
    process.exitCode = 1;
  } else {
    console.log('Import boundaries, module ports, table ownership and import cycles hold.');
  }
}
