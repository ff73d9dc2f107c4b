import { describe, expect, it } from 'vitest';
import type { SuiteRun } from '../model/suite';
import { jsonReport, reportFileName, serializeJsonReport } from './json-report';
import { junitReport, xmlEscape } from './junit-report';

const runs: SuiteRun[] = [
  {
    suiteId: 'crypto',
    status: 'failed',
    quick: false,
    startedAt: '2026-01-01T10:00:00.000Z',
    durationMs: 1500,
    checks: [
      {
        id: 'aes',
        name: 'AES-256-GCM <KAT>',
        status: 'passed',
        detail: 'ok',
        durationMs: 250,
        metrics: { mbps: 412 },
      },
      {
        id: 'tag',
        name: 'Flipped tag & "AAD"',
        status: 'failed',
        detail: "decrypted <bad> data & didn't fail",
        durationMs: 1000,
        why: 'Tampering must be detected',
        fix: 'Update the browser',
        docs: 'crypto-tag',
      },
      { id: 'warn', name: 'Warned', status: 'warning', detail: 'slow device', durationMs: 50 },
    ],
    errors: ['Flipped tag & "AAD": decrypted <bad> data & didn\'t fail'],
    output: ['> AES'],
  },
  {
    suiteId: 'api',
    status: 'cancelled',
    quick: true,
    startedAt: '2026-01-01T10:01:00.000Z',
    durationMs: 2000,
    checks: [
      { id: 'skip', name: 'Skipped', status: 'skipped', detail: 'not on HTTPS', durationMs: 0 },
      { id: 'stop', name: 'Stopped', status: 'cancelled', detail: 'Stopped while running', durationMs: 1999 },
    ],
    errors: [],
    output: [],
  },
];

describe('the JSON report', () => {
  it('round-trips: what is downloaded parses back to the same runs, build and browser', () => {
    const now = new Date('2026-01-02T03:04:05.678Z');
    const report = jsonReport(runs, { version: '1.2.3', commit: 'abc123' }, now);
    const parsed = JSON.parse(serializeJsonReport(report)) as unknown;
    expect(parsed).toEqual({
      generatedAt: '2026-01-02T03:04:05.678Z',
      app: { version: '1.2.3', commit: 'abc123' },
      browser: navigator.userAgent,
      runs,
    });
    expect(reportFileName(now, 'json')).toBe('vault-test-report-2026-01-02T03-04-05Z.json');
  });
});

describe('the JUnit report', () => {
  const parse = (xml: string) => new DOMParser().parseFromString(xml, 'application/xml');

  it('is well-formed, with the right counts and times in seconds', () => {
    const doc = parse(junitReport(runs, (id) => (id === 'crypto' ? 'Crypto' : 'API')));
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    const root = doc.documentElement;
    expect(root.tagName).toBe('testsuites');
    expect([root.getAttribute('tests'), root.getAttribute('failures'), root.getAttribute('skipped')]).toEqual(
      ['5', '1', '2'],
    );
    expect(root.getAttribute('time')).toBe('3.500');
    const suites = [...doc.getElementsByTagName('testsuite')];
    expect(
      suites.map((s) => [s.getAttribute('name'), s.getAttribute('tests'), s.getAttribute('time')]),
    ).toEqual([
      ['Crypto', '3', '1.500'],
      ['API (quick)', '2', '2.000'],
    ]);
    const cases = [...doc.getElementsByTagName('testcase')];
    expect(cases.map((c) => c.getAttribute('time'))).toEqual(['0.250', '1.000', '0.050', '0.000', '1.999']);
    expect(cases[0]!.getAttribute('classname')).toBe('vault.crypto');
    expect(doc.getElementsByTagName('failure')).toHaveLength(1);
    expect(doc.getElementsByTagName('skipped')).toHaveLength(2);
    expect(doc.getElementsByTagName('skipped')[1]!.getAttribute('message')).toBe(
      'Stopped: Stopped while running',
    );
  });

  it('escapes what the checks said', () => {
    const doc = parse(junitReport(runs));
    const failed = doc.getElementsByTagName('testcase')[1]!;
    expect(failed.getAttribute('name')).toBe('Flipped tag & "AAD"');
    const failure = failed.getElementsByTagName('failure')[0]!;
    expect(failure.getAttribute('message')).toBe("decrypted <bad> data & didn't fail");
    expect(failure.textContent).toBe(
      "decrypted <bad> data & didn't fail\nWhy: Tampering must be detected\nFix: Update the browser\nDocs: crypto-tag",
    );
    expect(doc.getElementsByTagName('testcase')[0]!.getAttribute('name')).toBe('AES-256-GCM <KAT>');
  });

  it('escapes markup and drops characters XML cannot hold', () => {
    expect(xmlEscape(`<a href="x">'&'</a>\u0001`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;',
    );
    expect(parse(junitReport([])).getElementsByTagName('parsererror')).toHaveLength(0);
  });
});
