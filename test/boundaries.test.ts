import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundaryRule, findViolations } from '../scripts/check-boundaries.ts';

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
    const found = findViolations(root).map(({ file, line, specifier }) => `${file}:${line} ${specifier}`);
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

  it('holds in this repository', () => {
    expect(findViolations(repoRoot)).toEqual([]);
  });
});
