import type { About } from '../api/about';
import type { SuiteId, SuiteRun } from '../model/suite';
import { redact } from './redact';
import type { SupportInfo } from './support-info';

export interface SupportReportInput extends SupportInfo {
  about: About;
  /** The latest run of each suite. */
  runs: SuiteRun[];
  nameOf: (id: SuiteId) => string;
  now?: Date;
}

const yesNo = (v: boolean): string => (v ? 'yes' : 'no');
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
// A short commit is enough to find the build, and stays under the long-hex redaction.
const shortCommit = (commit: string): string =>
  /^[0-9a-f]{13,}$/i.test(commit) ? commit.slice(0, 12) : commit;

function runLines(run: SuiteRun, nameOf: (id: SuiteId) => string): string[] {
  const lines = [
    '',
    `## ${nameOf(run.suiteId)} (${run.suiteId})`,
    `status: ${run.status}${run.quick ? ' (Quick Test)' : ''}, duration: ${run.durationMs} ms, started: ${run.startedAt}`,
  ];
  for (const check of run.checks) {
    lines.push(`- ${check.id}: ${check.status} (${check.durationMs} ms): ${check.detail}`);
    const metrics = Object.entries(check.metrics ?? {});
    if (metrics.length) lines.push(`  metrics: ${metrics.map(([k, v]) => `${k}=${v}`).join(', ')}`);
  }
  return lines;
}

/**
 * "Copy support report": plain text a self-hoster can paste into an issue. Every line goes through
 * redact(): no e-mail, id, token, cookie, address, key or sealed value survives, even inside a
 * check's detail. The output log is left out: it adds little to the details and names more ids.
 */
export function supportReport(input: SupportReportInput): string {
  const { about, browser, server, runs, nameOf, secrets } = input;
  const lines = [
    '# Vault support report',
    `generated: ${(input.now ?? new Date()).toISOString()}`,
    '',
    '## Server build (GET /api/about)',
    `version: ${about.version}`,
    `commit: ${shortCommit(about.commit)}`,
    `built: ${about.builtAt}`,
    `environment: ${about.environment}`,
    '',
    '## Browser',
    `user agent: ${browser.userAgent}`,
    `language: ${browser.language}`,
    `cores: ${browser.hardwareConcurrency ?? 'unknown'}`,
    `cross-origin isolated: ${yesNo(browser.crossOriginIsolated)}`,
    `secure context: ${yesNo(browser.secureContext)}`,
    `storage: ${browser.storage ? `${mb(browser.storage.usage)} used of ${mb(browser.storage.quota)}` : 'unknown'}`,
    '',
    '## Server settings',
    `api base: ${server.config.apiBaseUrl}`,
    `inactivity timeout: ${server.config.inactivityTimeoutMs} ms (warning ${server.config.inactivityWarningMs} ms before)`,
    `storage types: ${server.storage ? `${server.storage.types.join(', ') || 'none'} (default ${server.storage.default})` : 'unknown'}`,
    `health: ${
      server.health
        ? `${server.health.status} (${Object.entries(server.health.services)
            .map(([name, status]) => `${name} ${status}`)
            .join(', ')})`
        : 'unknown'
    }`,
    '',
    runs.length ? '# Latest runs' : '# Latest runs: none yet',
    ...runs.flatMap((run) => runLines(run, nameOf)),
  ];
  return `${lines.map((line) => redact(line, secrets)).join('\n')}\n`;
}
