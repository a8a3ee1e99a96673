import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  boundaryRule,
  findViolations,
  modulePortRule,
  SHARED_TABLES,
  tablesNamedInSql,
} from '../scripts/check-boundaries.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');

/** A small tree with one file per situation; each file says which import it makes. */
const fixture: Record<string, string> = {
  'src/shared/money.ts': "import { apiRequest } from '../web/lib/api-client.ts';\nexport const a = apiRequest;\n",
  'src/shared/schemas/parts.ts': "import { a } from '../money.ts';\nexport const b = a;\n",
  'src/server/service.ts': "import { b } from '../shared/schemas/parts.ts';\nexport const c = b;\n",
  'src/server/leaky.ts': "import { paths } from '../web/lib/paths.ts';\nexport const d = paths;\n",
  'src/web/lib/paths.ts': 'export const paths = {};\n',
  'src/web/lib/api-client.ts':
    "import { c } from '../../server/service.ts';\nimport { b } from '../../shared/schemas/parts.ts';\nexport const apiRequest = [b, c];\n",
  'src/web/lib/uses-feature.ts': "export { e } from '../features/catalog/parts-api.ts';\n",
  'src/web/components/part-card.tsx': "import { paths } from '../lib/paths.ts';\nexport const f = paths;\n",
  'src/web/features/catalog/parts-api.ts':
    "import { paths } from '../../lib/paths.ts';\nimport { f } from '../../components/part-card.tsx';\nexport const e = [paths, f];\n",
  'src/web/features/catalog/nested/deep.ts': "import { e } from '../parts-api.ts';\nexport const g = e;\n",
  'src/web/features/orders/purchase-page.tsx':
    "import { e } from '../catalog/parts-api.ts';\n// import('../reviews/reviews-api.ts') in a comment is not an import\nconst text = \"import('../reviews/reviews-api.ts')\";\nexport const h = [e, text];\n",
  'src/web/features/orders/lazy.ts':
    "export const load = () => import('../reviews/reviews-api.ts');\nexport const own = () => import('./purchase-page.tsx');\n",
  'src/web/features/orders/uses-app.ts': "import { router } from '../../app/router.tsx';\nexport const i = router;\n",
  'src/web/features/reviews/reviews-api.ts': "import { paths } from '../../lib/paths.ts';\nexport const j = paths;\n",
  'src/web/app/router.tsx':
    "import { e } from '../features/catalog/parts-api.ts';\nimport { h } from '../features/orders/purchase-page.tsx';\nexport const router = () => import('../features/reviews/reviews-api.ts').then(() => [e, h]);\n",
};

let root: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-boundaries-'));
  for (const [file, code] of Object.entries(fixture)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), code);
  }
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('import boundaries', () => {
  it('reports each import that crosses a boundary, and only those', () => {
    // The tree also makes an import cycle (shared → web → server → shared), which the cycle rule reports.
    const found = findViolations(root)
      .filter(({ rule }) => rule === 'boundary')
      .map(({ file, line, specifier }) => `${file}:${line} ${specifier}`);
    expect(found.sort()).toEqual(
      [
        // shared → web
        'src/shared/money.ts:1 ../web/lib/api-client.ts',
        // server → web
        'src/server/leaky.ts:1 ../web/lib/paths.ts',
        // web → server
        'src/web/lib/api-client.ts:1 ../../server/service.ts',
        // lib → a feature
        'src/web/lib/uses-feature.ts:1 ../features/catalog/parts-api.ts',
        // feature → another feature, statically and through import()
        'src/web/features/orders/purchase-page.tsx:1 ../catalog/parts-api.ts',
        'src/web/features/orders/lazy.ts:1 ../reviews/reviews-api.ts',
        // feature → app
        'src/web/features/orders/uses-app.ts:1 ../../app/router.tsx',
      ].sort(),
    );
  });

  it('says why', () => {
    const messages = findViolations(root).map(({ message }) => message);
    expect(messages).toContain(
      'features/orders imports features/catalog: features do not import each other; move what both need to lib/ or components/, or compose them in app/',
    );
    expect(messages).toContain('src/shared is used by the web app and the server, so it imports neither');
    expect(messages).toContain('the web app does not import server code (share it in src/shared)');
  });

  it('tells features apart by folder, however deep the importing file sits', () => {
    expect(boundaryRule('src/web/features/catalog/nested/deep.ts', 'src/web/features/catalog/parts-api.ts')).toBeNull();
    expect(boundaryRule('src/web/features/catalog/nested/deep.ts', 'src/web/features/orders/a.ts')).not.toBeNull();
    expect(boundaryRule('src/web/features/orders/a.ts', 'src/web/lib/paths.ts')).toBeNull();
    expect(boundaryRule('src/web/app/router.tsx', 'src/web/features/orders/a.ts')).toBeNull();
    expect(boundaryRule('src/web/main.tsx', 'src/web/features/orders/a.ts')).toBeNull();
    expect(boundaryRule('src/web/features/orders/a.ts', 'src/web/main.tsx')).not.toBeNull();
    expect(boundaryRule('src/web/components/x.tsx', 'src/web/app/router.tsx')).not.toBeNull();
    expect(boundaryRule('src/web/lib/x.ts', 'src/shared/money.ts')).toBeNull();
    expect(boundaryRule('src/server/x.ts', 'src/shared/money.ts')).toBeNull();
  });
});

/** The fixture trees of test/fixtures/boundaries, one per rule and a clean one; each line as `rule file:line what`. */
const fixtures = path.join(import.meta.dirname, 'fixtures', 'boundaries');
const reported = (tree: string, shared: Parameters<typeof findViolations>[1] = []) =>
  findViolations(path.join(fixtures, tree), shared).map(
    ({ rule, file, line, specifier }) => `${rule} ${file}:${line} ${specifier}`,
  );

describe('server module rules', () => {
  it('pass a tree that keeps them: ports, foreign keys between schema files, the composition root, test helpers', () => {
    expect(reported('clean')).toEqual([]);
  });

  it("refuse a module importing another module's repository, or any file of it but its port", () => {
    expect(reported('module-port')).toEqual([
      'module-port src/server/modules/shop/basket-service.ts:2 ../stock/stock-repository.ts',
      'module-port src/server/modules/shop/basket-service.ts:3 ../stock/stock-rules.ts',
    ]);
    const [repository] = findViolations(path.join(fixtures, 'module-port'));
    expect(repository?.message).toMatch(
      /^modules\/shop imports another module's repository \(stock\/stock-repository.ts\)/,
    );
  });

  it('refuse a module touching a table another module owns, imported or named in SQL (sql`…` or sql.raw)', () => {
    expect(reported('table-owner')).toEqual([
      'table-owner src/server/modules/shop/basket-repository.ts:2 items',
      'table-owner src/server/modules/shop/basket-repository.ts:6 items',
      'table-owner src/server/modules/shop/basket-repository.ts:10 items',
    ]);
    const messages = findViolations(path.join(fixtures, 'table-owner')).map(({ message }) => message);
    expect(messages[0]).toMatch(/^modules\/shop imports table items, which modules\/stock owns/);
    expect(messages[1]).toMatch(/^modules\/shop names in SQL table items, which modules\/stock owns/);
  });

  it('accept a declared shared table, and report one that is no longer used', () => {
    const file = 'src/server/modules/shop/basket-repository.ts';
    expect(reported('table-owner', [{ file, table: 'items', why: 'one statement' }])).toEqual([]);
    expect(reported('clean', [{ file, table: 'items', why: 'one statement' }])).toEqual([
      `table-owner ${file}:1 items`,
    ]);
  });

  it('refuse a module schema that src/server/db/schema.ts does not re-export (drizzle-kit would miss it)', () => {
    expect(reported('schema-export')).toEqual([
      'table-owner src/server/db/schema.ts:1 src/server/modules/shop/basket-schema.ts',
    ]);
  });

  it('refuse an import cycle, type-only imports included', () => {
    expect(reported('import-cycle')).toEqual(['import-cycle src/server/money.ts:2 ./prices.ts']);
    const [cycle] = findViolations(path.join(fixtures, 'import-cycle'));
    expect(cycle?.message).toBe('import cycle: src/server/money.ts → src/server/prices.ts → src/server/money.ts');
  });

  it('judge only module code: the composition root, other server code and tests may reach any module', () => {
    const repository = 'src/server/modules/stock/stock-repository.ts';
    expect(modulePortRule('src/server/services.ts', repository)).toBeNull();
    expect(modulePortRule('src/server/plugins/auth.ts', repository)).toBeNull();
    expect(modulePortRule('src/server/modules/shop/basket.test.ts', repository)).toBeNull();
    expect(modulePortRule('src/server/modules/stock/stock-service.ts', repository)).toBeNull();
    expect(modulePortRule('src/server/modules/shop/x.ts', 'src/server/modules/stock/stock-port.ts')).toBeNull();
    expect(modulePortRule('src/server/modules/shop/schema.ts', 'src/server/modules/stock/schema.ts')).toBeNull();
    expect(modulePortRule('src/server/modules/shop/x.ts', 'src/server/modules/stock/schema.ts')).not.toBeNull();
  });

  it('find the tables a statement names', () => {
    expect(tablesNamedInSql('select * from parts p join "orders" o on true')).toEqual(['parts', 'orders']);
    expect(tablesNamedInSql('insert into mail_outbox (id) values (1)')).toEqual(['mail_outbox']);
    expect(tablesNamedInSql('update only public.users set x = 1; delete from sessions')).toEqual(['users', 'sessions']);
    expect(tablesNamedInSql('select extract(year from created_at)')).toEqual(['created_at']);
  });
});

describe('this repository', () => {
  it('keeps every rule', () => {
    expect(findViolations(repoRoot, SHARED_TABLES)).toEqual([]);
  });
});
