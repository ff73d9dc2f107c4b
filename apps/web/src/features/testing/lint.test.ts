// @vitest-environment node
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 15: no status on the testing dashboard is decided by chance. The lint of `npm test`
 * (eslint.config.mjs) refuses Math.random anywhere in this feature; planted uses must fail it.
 */
const root = fileURLToPath(new URL('../../../../..', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
let eslint: ESLint;

async function randomErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(here, path) });
  return (result?.messages ?? []).map((m) => `${m.line}:${m.ruleId}: ${m.message}`);
}

beforeAll(() => {
  eslint = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-properties' });
});

describe('the testing dashboard lint', () => {
  it.each([
    ['a call', 'suites/planted.ts', 'export const pass = () => Math.random() > 0.5;'],
    ['a computed member', 'runner/planted.ts', "export const pick = Math['random'];"],
    ['destructuring', 'components/planted.tsx', 'const { random } = Math;\nexport const r = random;'],
    ['in a test', 'store/planted.test.ts', 'export const n = Math.random();'],
  ])('refuses Math.random as %s', async (_what, path, code) => {
    const errors = await randomErrors(path, `${code}\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/no-restricted-properties: .*issue 15/);
  });

  it('leaves measured values and other features alone', async () => {
    expect(
      await randomErrors('suites/planted.ts', 'export const t = performance.now() + Math.max(1, 2);'),
    ).toEqual([]);
    const [other] = await eslint.lintText('export const n = Math.random();\n', {
      filePath: join(here, '../notes/planted.ts'),
    });
    expect(other?.messages ?? []).toEqual([]);
  });

  it('finds no Math.random in the feature', async () => {
    const results = await eslint.lintFiles([join(here, '**/*.{ts,tsx}')]);
    const found = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === 'no-restricted-properties')
        .map((m) => `${r.filePath}:${m.line}: ${m.message}`),
    );
    expect(found).toEqual([]);
  });
});
