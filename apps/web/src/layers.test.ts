// @vitest-environment node
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layers of README.md "Layout", as the lint of `npm test` enforces them (eslint.config.mjs,
 * "The web app's layers"): imports planted in files of each layer must fail that lint, and the
 * tree itself, scanned by resolved path rather than by the lint's patterns, must hold none.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const src = fileURLToPath(new URL('.', import.meta.url));
const featuresDir = join(src, 'features');
const features = readdirSync(featuresDir).filter((name) => statSync(join(featuresDir, name)).isDirectory());

const BOUNDARY_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax']);
let eslint: ESLint;

/** The boundary errors the repository's lint reports for `code` planted at `path` (under apps/web/src). */
async function boundaryErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(src, path) });
  return (result?.messages ?? []).map((m) => `${m.line}:${m.ruleId}: ${m.message}`);
}

beforeAll(() => {
  eslint = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => BOUNDARY_RULES.has(ruleId) });
});

describe('the lint refuses imports across the layers', () => {
  it('fails on a planted import from one feature into another', async () => {
    const errors = await boundaryErrors(
      'features/trash/components/planted.tsx',
      "import { notesChanged } from '../../notes/api/invalidate';\nexport const changed = notesChanged;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^1:no-restricted-imports: .* features\/trash cannot import another feature/);
  });

  it.each([
    [
      'a re-export, deeper down',
      'features/files/access/utils/planted.ts',
      "export * from '../../../notes/api/invalidate';",
    ],
    [
      'a type import',
      'features/notes/planted.ts',
      "import type { SettingsTab } from '../settings/components/settings-page';\nexport type T = SettingsTab;",
    ],
    [
      'a path through features/',
      'features/auth/planted.ts',
      "import { x } from '../../features/recovery/api/recovery';\nexport { x };",
    ],
    ['a stylesheet', 'features/files/planted.ts', "import '../notes/components/notes.css';"],
    [
      'import()',
      'features/settings/planted.ts',
      "export const load = () => import('../notes/backup/components/backup-sections');",
    ],
    [
      'typeof import()',
      'features/recovery/planted.ts',
      "export type Store = typeof import('../files/state/files-registry');",
    ],
    [
      'vi.mock()',
      'features/session/planted.test.ts',
      "import { vi } from 'vitest';\nvi.mock('../../auth/api/login');",
    ],
    [
      'the testing dashboard, from another feature',
      'features/notes/planted.ts',
      "import { runSuite } from '../testing/runner/run-suite';\nexport { runSuite };",
    ],
    [
      'the testing dashboard, from another feature, by features/',
      'features/admin/planted.ts',
      "export type { SuiteRun } from '../../features/testing/model/suite';",
    ],
    [
      'the app, outside a test',
      'features/files/planted.ts',
      "import { routes } from '../../app/router';\nexport { routes };",
    ],
    [
      'a feature, from lib/',
      'lib/session/planted.ts',
      "import { x } from '../../features/notes/api/invalidate';\nexport { x };",
    ],
    [
      'a component, from lib/',
      'lib/planted.ts',
      "import { Button } from '../components/button';\nexport { Button };",
    ],
    [
      'a feature, from components/',
      'components/planted.tsx',
      "import { x } from '../features/files/types';\nexport { x };",
    ],
    [
      'the app, from workers/',
      'workers/planted.ts',
      "import { routes } from '../app/router';\nexport { routes };",
    ],
  ])('fails on %s', async (_what, path, code) => {
    expect(await boundaryErrors(path, `${code}\n`)).toHaveLength(1);
  });

  it('lets a feature import itself and the shared layers, its tests render the app, and the app compose features', async () => {
    expect(
      await boundaryErrors(
        'features/files/access/utils/planted.ts',
        [
          "import { filesChanged } from '../../api/invalidate';",
          "import { Button } from '../../../../components/button';",
          "import { useQueryCache } from '../../../../lib/query';",
          "import type { FilesCrypto } from '../../../../workers/files-crypto';",
          'export { Button, filesChanged, useQueryCache };',
          'export type { FilesCrypto };',
        ].join('\n'),
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'features/notes/planted.test.tsx',
        "import { routes } from '../../app/router';\nimport { renderApp } from '../../testing/render-app';\nexport { renderApp, routes };\n",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'app/routes/planted.tsx',
        "import { VaultPage } from '../../features/notes/components/vault-page';\nimport { FilesRoute } from '../../features/files/components/files-page';\nexport { FilesRoute, VaultPage };\n",
      ),
    ).toEqual([]);
  });
});

/** Every relative module specifier in the file: imports, re-exports, import(), vi.mock() and kin. */
function specifiers(text: string): string[] {
  const found = text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\bvi\.\w+\(\s*)['"](\.{1,2}\/[^'"]*)['"]/g);
  return [...found].map((m) => m[1]!);
}

function resolveModule(from: string, spec: string): string {
  const base = resolve(dirname(from), spec);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? base;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

const featureOf = (path: string): string | null => {
  const rel = relative(featuresDir, path);
  return rel.startsWith('..') ? null : (rel.split(sep)[0] ?? null);
};

describe('the tree', () => {
  it('has no import from one feature into another, by resolved path', () => {
    const crossings: string[] = [];
    for (const file of sourceFiles(featuresDir)) {
      const own = featureOf(file);
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        const target = featureOf(resolveModule(file, spec));
        if (target && target !== own) crossings.push(`${relative(src, file)} → ${spec}`);
      }
    }
    expect(crossings).toEqual([]);
  });

  it('keeps @vault/crypto out of the page: only the Workers, tests and test harnesses import its values', () => {
    // On the page it would pull the whole library and hash-wasm (about 270 kB) into the main bundle.
    // features/testing is the testing dashboard, on the page: only its own testing/ folder is test support.
    const onPage = sourceFiles(src).filter(
      (file) =>
        !/(^|\/)(workers|testing)\//.test(relative(src, file).replace(/^features\/testing\//, 'features/')) &&
        !/\.test\.tsx?$/.test(file),
    );
    const valueImport = /^\s*(import|export)\s+(?!type\b)[^;]*?from\s*['"]@vault\/crypto['"]/m;
    expect(
      onPage.filter((file) => valueImport.test(readFileSync(file, 'utf8'))).map((f) => relative(src, f)),
    ).toEqual([]);
  });

  it('names no folder inside a feature after another feature or the app (the lint matches names)', () => {
    const clashes = sourceFiles(featuresDir)
      .map((file) => relative(featuresDir, file).split(sep))
      .flatMap(([own, ...rest]) =>
        // testing/ is every layer's test support folder; the lint tells it from the testing feature.
        rest
          .slice(0, -1)
          .filter((dir) => dir === 'app' || (dir !== own && dir !== 'testing' && features.includes(dir))),
      );
    expect(clashes).toEqual([]);
  });
});
