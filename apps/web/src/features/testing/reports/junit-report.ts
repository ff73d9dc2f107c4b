import type { CheckResult, SuiteId, SuiteRun } from '../model/suite';

/** XML text and attribute escaping, with characters XML 1.0 forbids dropped. */
export function xmlEscape(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);
const attrs = (pairs: Record<string, string | number>) =>
  Object.entries(pairs)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join('');

function testcase(run: SuiteRun, check: CheckResult): string {
  const open = `    <testcase${attrs({ classname: `vault.${run.suiteId}`, name: check.name, time: seconds(check.durationMs) })}`;
  if (check.status === 'failed') {
    const body = [
      check.detail,
      check.why && `Why: ${check.why}`,
      check.fix && `Fix: ${check.fix}`,
      check.docs && `Docs: ${check.docs}`,
    ]
      .filter(Boolean)
      .join('\n');
    return `${open}>\n      <failure${attrs({ message: check.detail, type: 'failed' })}>${xmlEscape(body)}</failure>\n    </testcase>`;
  }
  if (check.status === 'skipped' || check.status === 'cancelled') {
    return `${open}>\n      <skipped${attrs({ message: check.status === 'cancelled' ? `Stopped: ${check.detail}` : check.detail })}/>\n    </testcase>`;
  }
  // A warning passed; its detail stays readable in system-out.
  return `${open}>\n      <system-out>${xmlEscape(`${check.status}: ${check.detail}`)}</system-out>\n    </testcase>`;
}

/** JUnit XML of the runs: one testsuite per suite run, one testcase per check, times in seconds. */
export function junitReport(runs: SuiteRun[], nameOf: (id: SuiteId) => string = (id) => id): string {
  const count = (run: SuiteRun, ...statuses: CheckResult['status'][]) =>
    run.checks.filter((c) => statuses.includes(c.status)).length;
  const total = (fn: (run: SuiteRun) => number) => runs.reduce((sum, run) => sum + fn(run), 0);
  const suites = runs.map((run) => {
    const head = `  <testsuite${attrs({
      name: nameOf(run.suiteId) + (run.quick ? ' (quick)' : ''),
      tests: run.checks.length,
      failures: count(run, 'failed'),
      errors: 0,
      skipped: count(run, 'skipped', 'cancelled'),
      time: seconds(run.durationMs),
      timestamp: run.startedAt,
    })}>`;
    return [head, ...run.checks.map((check) => testcase(run, check)), '  </testsuite>'].join('\n');
  });
  const root = `<testsuites${attrs({
    name: 'Vault testing dashboard',
    tests: total((r) => r.checks.length),
    failures: total((r) => count(r, 'failed')),
    errors: 0,
    skipped: total((r) => count(r, 'skipped', 'cancelled')),
    time: seconds(total((r) => r.durationMs)),
  })}>`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', root, ...suites, '</testsuites>', ''].join('\n');
}
