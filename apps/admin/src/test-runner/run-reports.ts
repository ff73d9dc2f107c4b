import type { CoverageMetric, CoverageSummary, ServerTestRun } from '@vault/contracts';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { z } from 'zod';

/** What Jest's `--json` report and Istanbul's json-summary hold that a run shows (the rest is ignored). */
const resultsSchema = z.object({
  numTotalTests: z.number().int().min(0),
  numPassedTests: z.number().int().min(0),
  numFailedTests: z.number().int().min(0),
  numPendingTests: z.number().int().min(0),
  numTodoTests: z.number().int().min(0).default(0),
});
const figure = z.object({ total: z.number().int().min(0), covered: z.number().int().min(0) });
const fileSummarySchema = z.object({
  lines: figure,
  statements: figure,
  functions: figure,
  branches: figure,
});
const summarySchema = z.record(z.string(), fileSummarySchema);

type Figure = z.infer<typeof figure>;

/** The report files a run writes into its own temporary folder (the command table names them). */
export const RESULTS_FILE = 'results.json';
export const COVERAGE_DIR = 'coverage';
const COVERAGE_SUMMARY = join(COVERAGE_DIR, 'coverage-summary.json');

/** Covered of total with its percentage (2 decimals); nothing to cover counts as fully covered. */
export function metric({ covered, total }: Figure): CoverageMetric {
  const pct = total === 0 ? 100 : Math.round((covered / total) * 10_000) / 100;
  return { covered, total, pct };
}

/** The test counts of Jest's `--json` report; null when it is missing or not a report. */
export function testCounts(results: unknown): ServerTestRun['tests'] {
  const parsed = resultsSchema.safeParse(results);
  if (!parsed.success) return null;
  const r = parsed.data;
  return {
    total: r.numTotalTests,
    passed: r.numPassedTests,
    failed: r.numFailedTests,
    skipped: r.numPendingTests + r.numTodoTests,
  };
}

/**
 * The totals of a json-summary and the line coverage of each package folder: its file entries
 * (absolute paths) grouped by their first two segments under `root` (`libs/crypto`), sorted by path.
 */
export function coverageSummary(summary: unknown, root: string): CoverageSummary | null {
  const parsed = summarySchema.safeParse(summary);
  if (!parsed.success || !parsed.data['total']) return null;
  const { total, ...files } = parsed.data;
  const folders = new Map<string, Figure>();
  for (const [file, figures] of Object.entries(files)) {
    const path = relative(root, file);
    if (!path || path.startsWith('..') || isAbsolute(path)) continue;
    const segments = path.split(sep);
    if (segments.length < 3) continue;
    const folder = segments.slice(0, 2).join('/');
    const sum = folders.get(folder) ?? { covered: 0, total: 0 };
    folders.set(folder, {
      covered: sum.covered + figures.lines.covered,
      total: sum.total + figures.lines.total,
    });
  }
  return {
    lines: metric(total.lines),
    statements: metric(total.statements),
    functions: metric(total.functions),
    branches: metric(total.branches),
    folders: [...folders.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([path, lines]) => ({ path, lines: metric(lines) })),
  };
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The counts and coverage a finished run left in `outDir` (each null when it wrote none). */
export async function readRunReports(
  outDir: string,
  root: string,
): Promise<Pick<ServerTestRun, 'tests' | 'coverage'>> {
  const [results, summary] = await Promise.all([
    readJson(join(outDir, RESULTS_FILE)),
    readJson(join(outDir, COVERAGE_SUMMARY)),
  ]);
  return { tests: testCounts(results), coverage: coverageSummary(summary, root) };
}
