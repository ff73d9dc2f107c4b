import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { readFileText } from '../../../lib/read-file-text';
import { captureDownloads } from '../../../testing/capture-downloads';
import type { About } from '../api/about';
import type { CheckContext, CheckOutcome, SuiteRun } from '../model/suite';
import { memoryRecentRuns, type RecentRunsStore } from '../store/recent-runs';
import { deferred } from '../testing/deferred';
import { fakeCheck, fakeSuite, passes, untilAborted } from '../testing/fake-suites';
import { FakeTestRunner } from '../testing/fake-test-runner';
import type { SupportInfo } from '../reports/support-info';
import { TestingDashboard } from './testing-dashboard';

const ABOUT: About = {
  version: '1.4.0',
  commit: 'c0ffee1',
  builtAt: '2026-11-01T00:00:00Z',
  environment: 'production',
};
const SUPPORT_EMAIL = 'alice.smith@example.org';
const SUPPORT_INFO: SupportInfo = {
  browser: {
    userAgent: 'TestBrowser/1',
    language: 'en',
    hardwareConcurrency: 2,
    crossOriginIsolated: false,
    secureContext: true,
    storage: null,
  },
  server: {
    config: { apiBaseUrl: '/api', inactivityTimeoutMs: 600_000, inactivityWarningMs: 60_000 },
    storage: null,
    health: { status: 'ok', services: { gateway: 'ok' } },
  },
  secrets: [SUPPORT_EMAIL],
};
const makeCtx = (base: CheckContext) => base;
// No admin console session: the server runner's panel and dialog parts have their own tests.
const signedOutRunner = Object.assign(new FakeTestRunner(), { admin: null });
let downloads: ReturnType<typeof captureDownloads> | null = null;
afterEach(() => downloads?.restore());

function renderDashboard(
  suites = [fakeSuite('crypto', [fakeCheck('a', passes('aes ok'))])],
  {
    store = memoryRecentRuns(),
    loadAbout = async () => ABOUT,
  }: { store?: RecentRunsStore; loadAbout?: () => Promise<About> } = {},
) {
  const user = userEvent.setup();
  render(
    <TestingDashboard
      suites={suites}
      makeCtx={makeCtx}
      store={store}
      loadAbout={loadAbout}
      loadSupportInfo={async () => SUPPORT_INFO}
      serverRunner={signedOutRunner.api()}
    />,
  );
  return { user, store };
}

const card = (name: string) => screen.getByRole('region', { name });
const progress = () => screen.getByRole('progressbar', { name: 'Overall Progress' }) as HTMLProgressElement;

describe('the testing dashboard', () => {
  it('shows each suite idle with its estimate; Run streams the output, passes, and keeps the result', async () => {
    const { user, store } = renderDashboard([
      fakeSuite('crypto', [
        fakeCheck('a', async (ctx) => {
          ctx.log('vector 1 of 1');
          return { status: 'passed', detail: 'aes ok' };
        }),
      ]),
    ]);
    expect(screen.getByRole('heading', { level: 1, name: 'Testing Dashboard' })).toBeTruthy();
    const crypto = card('Suite crypto');
    expect(within(crypto).getByText('Idle')).toBeTruthy();
    expect(within(crypto).getByText('30.0 s')).toBeTruthy();
    expect(within(crypto).getByText('unit')).toBeTruthy();
    await user.click(within(crypto).getByRole('button', { name: 'Run Suite crypto' }));
    await waitFor(() => expect(within(crypto).getByText('Passed')).toBeTruthy());
    const log = within(crypto).getByRole('log', { name: 'Suite crypto output' });
    expect(log.getAttribute('aria-live')).toBe('polite');
    expect(log.textContent).toContain('vector 1 of 1');
    expect(log.textContent).toMatch(/PASS Check a: aes ok \(\d+ ms\)/);
    expect(progress().value).toBe(1);
    expect(progress().max).toBe(1);
    const recent = screen.getByRole('region', { name: 'Recent Test Results' });
    await waitFor(() => expect(within(recent).getByText('1 of 1 passed')).toBeTruthy());
    expect(await store.list()).toHaveLength(1);
  });

  it('Stop cancels the running check and starts nothing after it', async () => {
    const started: string[] = [];
    const { user } = renderDashboard([
      fakeSuite('e2e', [
        fakeCheck('long', (ctx) => {
          started.push('long');
          return untilAborted(ctx);
        }),
        fakeCheck('after', async () => {
          started.push('after');
          return { status: 'passed', detail: '' };
        }),
      ]),
    ]);
    const e2e = card('Suite e2e');
    await user.click(within(e2e).getByRole('button', { name: 'Run Suite e2e' }));
    await waitFor(() => expect(within(e2e).getByText('Running')).toBeTruthy());
    await user.click(within(e2e).getByRole('button', { name: 'Stop Suite e2e' }));
    await waitFor(() => expect(within(e2e).getByText('Cancelled')).toBeTruthy());
    expect(started).toEqual(['long']);
    expect(within(e2e).getByRole('log').textContent).toContain('Stopped: no further check was started.');
  });

  it('Run All runs the suites one after another with Overall Progress; Stop All leaves the rest unstarted', async () => {
    const first = deferred<CheckOutcome>();
    const started: string[] = [];
    let running = 0;
    const track = (id: string, wait: () => Promise<CheckOutcome>) =>
      fakeCheck(id, async () => {
        started.push(id);
        running += 1;
        expect(running).toBe(1);
        try {
          return await wait();
        } finally {
          running -= 1;
        }
      });
    const { user } = renderDashboard([
      fakeSuite('crypto', [track('c1', () => first.promise), track('c2', passes())]),
      fakeSuite('api', [track('a1', (() => new Promise(() => undefined)) as () => Promise<CheckOutcome>)]),
      fakeSuite('security', [track('s1', passes())]),
    ]);
    await user.click(screen.getByRole('button', { name: 'Run All' }));
    await waitFor(() => expect(started).toEqual(['c1']));
    expect(within(card('Suite api')).getByText('Queued')).toBeTruthy();
    expect(progress().max).toBe(4);
    expect(progress().value).toBe(0);
    await act(async () => first.resolve({ status: 'passed', detail: 'ok' }));
    await waitFor(() => expect(started).toEqual(['c1', 'c2', 'a1']));
    expect(progress().value).toBe(2);
    expect(within(card('Suite crypto')).getByText('Passed')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Stop All' }));
    await waitFor(() => expect(within(card('Suite api')).getByText('Cancelled')).toBeTruthy());
    expect(within(card('Suite security')).getByText('Idle')).toBeTruthy();
    expect(started).toEqual(['c1', 'c2', 'a1']);
    expect(screen.getByRole('button', { name: 'Run All' })).toBeTruthy();
  });

  it('Quick Test runs only each suite’s quick checks', async () => {
    const started: string[] = [];
    const check = (id: string, quick: boolean) =>
      fakeCheck(id, async () => (started.push(id), { status: 'passed', detail: 'ok' }), { quick });
    const { user } = renderDashboard([
      fakeSuite('crypto', [check('fast', true), check('slow', false)]),
      fakeSuite('performance', [check('slow2', false), check('fast2', true)]),
    ]);
    await user.click(screen.getByRole('button', { name: 'Quick Test' }));
    await waitFor(() => expect(within(card('Suite performance')).getByText('Passed')).toBeTruthy());
    expect(started).toEqual(['fast', 'fast2']);
    expect(within(card('Suite crypto')).getByText(/ms \(quick\)$/)).toBeTruthy();
  });

  it('a failed check says what, why and what to do, and opens its documentation', async () => {
    const { user } = renderDashboard([
      fakeSuite('api', [
        fakeCheck('contract', async () => {
          throw new Error('GET /notes answered 503');
        }),
      ]),
    ]);
    await user.click(within(card('Suite api')).getByRole('button', { name: 'Run Suite api' }));
    const failures = await screen.findByRole('list', { name: 'Checks to look at' });
    expect(failures.textContent).toContain('GET /notes answered 503');
    expect(failures.textContent).toContain('Why contract matters');
    expect(failures.textContent).toContain('How to fix contract');
    expect(within(card('Suite api')).getByText('Failed')).toBeTruthy();
    await user.click(within(failures).getByRole('button', { name: 'Documentation for “Check contract”' }));
    const dialog = screen.getByRole('dialog', { name: 'Documentation' });
    expect(document.activeElement?.id).toBe('testing-doc-contract-doc');
    expect(within(dialog).getByText('docs/testing-dashboard.md#contract-doc')).toBeTruthy();
  });

  it('View Coverage lists what each suite covers; CI/CD Status shows the build, or unknown', async () => {
    const { user } = renderDashboard([
      fakeSuite('crypto', [], { covers: ['AES-256-GCM vectors', 'Argon2id KAT'] }),
    ]);
    await user.click(screen.getByRole('button', { name: 'View Coverage' }));
    const coverage = screen.getByRole('dialog', { name: 'Coverage' });
    expect(
      within(coverage)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['AES-256-GCM vectors', 'Argon2id KAT']);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'CI/CD Status' }));
    const ci = screen.getByRole('dialog', { name: 'CI/CD Status' });
    expect(ci.textContent).toContain('1.4.0');
    expect(ci.textContent).toContain('c0ffee1');
  });

  it('says "unknown" when the server does not tell its build', async () => {
    const { user } = renderDashboard(undefined, { loadAbout: () => Promise.reject(new Error('HTTP 404')) });
    await user.click(screen.getByRole('button', { name: 'CI/CD Status' }));
    const ci = screen.getByRole('dialog', { name: 'CI/CD Status' });
    await waitFor(() => expect(within(ci).getAllByText('unknown')).toHaveLength(4));
    expect(ci.textContent).toContain('HTTP 404');
  });

  it('downloads the JSON and JUnit reports of the latest runs', async () => {
    downloads = captureDownloads();
    const { user } = renderDashboard();
    expect(
      (screen.getByRole('button', { name: 'Download Report (JSON)' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Run Suite crypto' }));
    await waitFor(() => expect(within(card('Suite crypto')).getByText('Passed')).toBeTruthy());
    await user.click(screen.getByRole('button', { name: 'Download Report (JSON)' }));
    await user.click(screen.getByRole('button', { name: 'Download Report (JUnit XML)' }));
    const [json, xml] = downloads.files;
    expect(json!.name).toMatch(/^vault-test-report-.*\.json$/);
    const report = JSON.parse(await readFileText(json!.blob)) as { app: unknown; runs: SuiteRun[] };
    expect(report.app).toEqual({ version: '1.4.0', commit: 'c0ffee1' });
    expect(report.runs.map((r) => [r.suiteId, r.status])).toEqual([['crypto', 'passed']]);
    const doc = new DOMParser().parseFromString(await readFileText(xml!.blob), 'application/xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    expect(doc.getElementsByTagName('testsuite')[0]!.getAttribute('name')).toBe('Suite crypto');
  });

  it('shows the runs kept on the device, newest first, and Clear Results empties them after a confirm', async () => {
    const kept = (minute: number, status: SuiteRun['status']): SuiteRun => ({
      suiteId: 'crypto',
      status,
      quick: false,
      startedAt: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
      durationMs: 1200,
      checks: [],
      errors: [],
      output: [],
    });
    const store = memoryRecentRuns([kept(1, 'failed'), kept(2, 'passed')]);
    const { user } = renderDashboard(undefined, { store });
    const recent = screen.getByRole('region', { name: 'Recent Test Results' });
    await waitFor(() => expect(within(recent).getAllByRole('listitem')).toHaveLength(2));
    expect(
      within(recent)
        .getAllByRole('listitem')
        .map((li) => within(li).getByText(/Passed|Failed/).textContent),
    ).toEqual(['Passed', 'Failed']);
    await user.click(screen.getByRole('button', { name: 'Clear Results' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Clear results?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(await store.list()).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Clear Results' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Clear Results' }));
    await waitFor(() => expect(within(recent).queryAllByRole('listitem')).toHaveLength(0));
    expect(await store.list()).toEqual([]);
  });

  it('copies a support report of the latest runs and the build, without the user’s e-mail', async () => {
    const { user } = renderDashboard([
      fakeSuite('crypto', [fakeCheck('a', passes(`signed in as ${SUPPORT_EMAIL}`))]),
    ]);
    await user.click(screen.getByRole('button', { name: 'Run Suite crypto' }));
    await waitFor(() => expect(within(card('Suite crypto')).getByText('Passed')).toBeTruthy());
    await user.click(screen.getByRole('button', { name: 'Copy support report' }));
    expect(await screen.findByText('Support report copied')).toBeTruthy();
    const text = await navigator.clipboard.readText();
    expect(text).toContain('version: 1.4.0');
    expect(text).toContain('- a: passed');
    expect(text).toContain('health: ok (gateway ok)');
    expect(text).not.toContain(SUPPORT_EMAIL);
  });

  it('is reachable by keyboard: Tab to Run All and Enter runs', async () => {
    const { user } = renderDashboard();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Run All' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(card('Suite crypto')).getByText('Passed')).toBeTruthy());
  });
});
