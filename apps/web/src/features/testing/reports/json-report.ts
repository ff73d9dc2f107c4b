import type { SuiteRun } from '../model/suite';

/** What the server says about its build (GET /api/about); unknown until it answers. */
export interface AppBuild {
  version: string;
  commit: string;
}

/** The JSON report (Download Report): what ran, on which browser, against which build. */
export interface JsonReport {
  generatedAt: string;
  app: AppBuild;
  browser: string;
  runs: SuiteRun[];
}

export function jsonReport(runs: SuiteRun[], app: AppBuild, now = new Date()): JsonReport {
  return { generatedAt: now.toISOString(), app, browser: navigator.userAgent, runs };
}

export const serializeJsonReport = (report: JsonReport): string => `${JSON.stringify(report, null, 2)}\n`;

/** The file name both reports share, by time (sortable, no colons for Windows). */
export const reportFileName = (now: Date, ext: 'json' | 'xml'): string =>
  `vault-test-report-${now
    .toISOString()
    .replace(/[:]/g, '-')
    .replace(/\.\d+Z$/, 'Z')}.${ext}`;
