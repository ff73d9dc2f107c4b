import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coverageSummary, metric, readRunReports, testCounts } from './run-reports';

const root = '/srv/vault';
const figures = (lines: [number, number], rest: [number, number] = [1, 2]) => {
  const f = ([covered, total]: [number, number]) => ({ covered, total, skipped: 0, pct: 0 });
  return { lines: f(lines), statements: f(rest), functions: f(rest), branches: f(rest) };
};

describe('test run reports', () => {
  it('rounds percentages to 2 decimals and counts nothing to cover as covered', () => {
    expect(metric({ covered: 2, total: 3 })).toEqual({ covered: 2, total: 3, pct: 66.67 });
    expect(metric({ covered: 0, total: 0 })).toEqual({ covered: 0, total: 0, pct: 100 });
    expect(metric({ covered: 431, total: 457 }).pct).toBe(94.31);
  });

  it('reduces a json-summary to its totals and the line coverage per package folder', () => {
    const summary = {
      total: figures([70, 100], [5, 10]),
      [`${root}/libs/crypto/src/seal.ts`]: figures([30, 40]),
      [`${root}/libs/crypto/src/kdf/argon.ts`]: figures([10, 20]),
      [`${root}/apps/auth/src/main.ts`]: figures([29, 39]),
      [`${root}/libs/contracts/src/errors.ts`]: figures([1, 1]),
      // Outside the root or at its top: not a package folder.
      '/elsewhere/libs/x/src/a.ts': figures([1, 1]),
      [`${root}/jest.config.ts`]: figures([1, 1]),
    };
    expect(coverageSummary(summary, root)).toEqual({
      lines: { covered: 70, total: 100, pct: 70 },
      statements: { covered: 5, total: 10, pct: 50 },
      functions: { covered: 5, total: 10, pct: 50 },
      branches: { covered: 5, total: 10, pct: 50 },
      folders: [
        { path: 'apps/auth', lines: { covered: 29, total: 39, pct: 74.36 } },
        { path: 'libs/contracts', lines: { covered: 1, total: 1, pct: 100 } },
        { path: 'libs/crypto', lines: { covered: 40, total: 60, pct: 66.67 } },
      ],
    });
  });

  it('gives null for a missing or malformed summary', () => {
    expect(coverageSummary(undefined, root)).toBeNull();
    expect(coverageSummary({ [`${root}/a/b/c.ts`]: figures([1, 1]) }, root)).toBeNull();
    expect(coverageSummary({ total: { lines: 'lots' } }, root)).toBeNull();
  });

  it("reads the counts of Jest's --json report (pending and todo are skipped)", () => {
    const report = {
      numTotalTests: 12,
      numPassedTests: 8,
      numFailedTests: 1,
      numPendingTests: 2,
      numTodoTests: 1,
    };
    expect(testCounts({ ...report, testResults: [] })).toEqual({
      total: 12,
      passed: 8,
      failed: 1,
      skipped: 3,
    });
    expect(testCounts({ numTotalTests: 1 })).toBeNull();
    expect(testCounts(null)).toBeNull();
  });

  it('reads both files of a run folder, and null for what it did not write', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'run-reports-'));
    try {
      expect(await readRunReports(dir, root)).toEqual({ tests: null, coverage: null });
      await writeFile(
        join(dir, 'results.json'),
        JSON.stringify({ numTotalTests: 3, numPassedTests: 3, numFailedTests: 0, numPendingTests: 0 }),
      );
      await mkdir(join(dir, 'coverage'));
      await writeFile(join(dir, 'coverage', 'coverage-summary.json'), '{"total": not json');
      expect(await readRunReports(dir, root)).toEqual({
        tests: { total: 3, passed: 3, failed: 0, skipped: 0 },
        coverage: null,
      });
      await writeFile(
        join(dir, 'coverage', 'coverage-summary.json'),
        JSON.stringify({ total: figures([1, 2]), [`${root}/libs/storage/src/s3.ts`]: figures([1, 2]) }),
      );
      expect((await readRunReports(dir, root)).coverage?.folders).toEqual([
        { path: 'libs/storage', lines: { covered: 1, total: 2, pct: 50 } },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
