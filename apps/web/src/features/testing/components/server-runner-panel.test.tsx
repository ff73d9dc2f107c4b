import { TEST_RUNNER_MESSAGES } from '@vault/contracts';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { json } from '../../../testing/fake-server';
import type { CheckContext } from '../model/suite';
import { memoryRecentRuns } from '../store/recent-runs';
import { fakeCheck, fakeSuite, passes } from '../testing/fake-suites';
import { COVERAGE, FakeTestRunner, READ_ONLY_ADMIN } from '../testing/fake-test-runner';
import { NO_TESTS_RUN, ONE_AT_A_TIME } from './server-runner-controls';
import { NOT_ADMIN_TEXT, NO_SYSTEM_READ_TEXT, SIGNED_OUT_TEXT } from './server-runner-panel';
import { TestingDashboard } from './testing-dashboard';

const POLL_MS = 10;

// user-event walks a radio group with CSS.escape, which jsdom lacks.
beforeAll(() => {
  if (!globalThis.CSS?.escape) {
    vi.stubGlobal('CSS', { ...globalThis.CSS, escape: (v: string) => v.replace(/[^\w-]/g, (c) => `\\${c}`) });
  }
});

function renderRunner(runner = new FakeTestRunner()) {
  const user = userEvent.setup();
  const view = render(
    <TestingDashboard
      suites={[fakeSuite('crypto', [fakeCheck('a', passes())])]}
      makeCtx={(base: CheckContext) => base}
      store={memoryRecentRuns()}
      loadAbout={async () => ({ version: '1.0.0', commit: 'abc', builtAt: 'now', environment: 'test' })}
      loadSupportInfo={() => Promise.reject(new Error('not used'))}
      serverRunner={runner.api()}
      serverPollMs={POLL_MS}
    />,
  );
  return { user, runner, view };
}

const panel = () => screen.getByRole('region', { name: 'Server runner' });
const inPanel = () => within(panel());
const runButton = () => inPanel().getByRole('button', { name: 'Run on server' }) as HTMLButtonElement;
const stopButton = () => inPanel().getByRole('button', { name: 'Stop server run' }) as HTMLButtonElement;
const log = () => inPanel().getByRole('log', { name: 'Server runner output' });
const rowOf = (table: HTMLElement, name: string) =>
  within(table).getByRole('rowheader', { name }).closest('tr')!.textContent!.replace(/\s+/g, ' ');

describe('the server runner panel', () => {
  it('without a console session: says what it is, how it turns on, links to the console; no Run', async () => {
    const runner = new FakeTestRunner();
    runner.admin = null;
    const { user } = renderRunner(runner);
    expect(await inPanel().findByText(SIGNED_OUT_TEXT)).toBeTruthy();
    expect(SIGNED_OUT_TEXT).toContain('TEST_RUNNER_ENABLED is true');
    expect(inPanel().getByText(/For admins only/)).toBeTruthy();
    expect(inPanel().getByRole('link', { name: 'Open the admin console' }).getAttribute('href')).toBe(
      '/admin',
    );
    expect(inPanel().queryByRole('button', { name: 'Run on server' })).toBeNull();
    // The user's bearer token never goes to the admin API.
    expect(runner.requests.every((r) => r.authorization === undefined)).toBe(true);
    runner.admin = READ_ONLY_ADMIN;
    await user.click(inPanel().getByRole('button', { name: 'Check again' }));
    expect(await inPanel().findByRole('radiogroup', { name: 'Suite to run on the server' })).toBeTruthy();
  });

  it.each([
    ['ADMIN_REQUIRED', NOT_ADMIN_TEXT],
    ['PERMISSION_DENIED', NO_SYSTEM_READ_TEXT],
  ])('403 %s: says the account cannot use it', async (code, text) => {
    const runner = new FakeTestRunner();
    runner.statusFailure = () => json(403, { error: 'Forbidden', code });
    renderRunner(runner);
    expect(await inPanel().findByText(text)).toBeTruthy();
    expect(inPanel().queryByRole('button', { name: 'Run on server' })).toBeNull();
  });

  it('a failed status load says why and Retry asks again', async () => {
    const runner = new FakeTestRunner();
    runner.statusFailure = () => json(503, { error: 'Service unavailable', code: 'SERVICE_UNAVAILABLE' });
    const { user } = renderRunner(runner);
    const alert = await inPanel().findByRole('alert');
    expect(alert.textContent).toContain('Service unavailable');
    runner.statusFailure = null;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await inPanel().findByText('No server run yet.')).toBeTruthy();
  });

  it('off: says so and how to turn it on; enabled without sources: says that', async () => {
    const runner = new FakeTestRunner();
    runner.enabled = false;
    const first = renderRunner(runner);
    expect(await inPanel().findByText(TEST_RUNNER_MESSAGES.off)).toBeTruthy();
    expect(panel().textContent).toContain('docs/operations.md');
    expect(inPanel().queryByRole('radio')).toBeNull();
    first.view.unmount();
    runner.enabled = true;
    runner.available = false;
    renderRunner(runner);
    expect(await inPanel().findByText(TEST_RUNNER_MESSAGES.noSources)).toBeTruthy();
    expect(inPanel().queryByRole('button', { name: 'Run on server' })).toBeNull();
  });

  it('runs a suite: the lines stream in order across polls, then Passed with the coverage table', async () => {
    const { user, runner } = renderRunner();
    const group = await inPanel().findByRole('radiogroup', { name: 'Suite to run on the server' });
    const radios = within(group).getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((r) => r.labels?.[0]?.textContent)).toEqual([
      expect.stringMatching(/^API contracts \(about 15\.0 s\)The contract library/),
      expect.stringMatching(/^Crypto library \(about 30\.0 s\)/),
      expect.stringMatching(/^All unit tests \(about 5 min\)/),
    ]);
    expect(radios[0]!.checked).toBe(true);
    await user.click(runButton());
    await waitFor(() => expect(runner.calls('POST', '/api/admin/test-runner/runs')).toHaveLength(1));
    const id = runner.ids.at(-1)!;
    expect(await inPanel().findByText('Running')).toBeTruthy();
    expect(runButton().disabled).toBe(true);
    expect(inPanel().getByText(ONE_AT_A_TIME)).toBeTruthy();
    const bar = inPanel().getByRole('progressbar', { name: 'Server run progress' });
    expect(Number(bar.getAttribute('value'))).toBeLessThan(100);
    act(() => runner.emit(id, ['PASS libs/contracts/a.spec.ts']));
    await waitFor(() => expect(log().textContent).toBe('PASS libs/contracts/a.spec.ts'));
    act(() => runner.emit(id, ['PASS libs/contracts/b.spec.ts', 'Tests: 12 passed']));
    await waitFor(() => expect(log().textContent).toContain('Tests: 12 passed'));
    act(() => {
      runner.emit(id, ['Coverage written']);
      runner.finish(id, {
        status: 'passed',
        tests: { total: 13, passed: 12, failed: 0, skipped: 1 },
        coverage: COVERAGE,
      });
    });
    expect(await inPanel().findByText('Passed')).toBeTruthy();
    expect(log().textContent).toBe(
      [
        'PASS libs/contracts/a.spec.ts',
        'PASS libs/contracts/b.spec.ts',
        'Tests: 12 passed',
        'Coverage written',
      ].join('\n'),
    );
    // Each poll asked from where the last one ended.
    const froms = runner.calls('GET', `/api/admin/test-runner/runs/${id}`).map((r) => Number(r.from));
    expect([...new Set(froms)]).toEqual([0, 1, 3]);
    expect(inPanel().getByText('12 passed, 0 failed, 1 skipped, 13 total')).toBeTruthy();
    expect(inPanel().getByText('14.2 s')).toBeTruthy();
    expect(bar.getAttribute('value')).toBe('100');
    const table = inPanel().getByRole('table', { name: 'Coverage of this API contracts run' });
    expect(rowOf(table, 'Lines')).toBe('Lines912100091.2%');
    expect(rowOf(table, 'Branches')).toBe('Branches30040075.0%');
    expect(rowOf(table, 'libs/contracts')).toBe('libs/contracts912100091.2%');
    // The run's end refreshed the status (its last run moved on), and Run is back.
    await waitFor(() => expect(runner.calls('GET', '/api/admin/test-runner')).toHaveLength(2));
    await waitFor(() => expect(runButton().disabled).toBe(false));
  });

  it('Stop ends the run as Cancelled and reading stops', async () => {
    const { user, runner } = renderRunner();
    await user.click(await inPanel().findByRole('radio', { name: /All unit tests/ }));
    await user.click(runButton());
    expect(await inPanel().findByText('Running')).toBeTruthy();
    const id = runner.ids.at(-1)!;
    expect(runner.run(id).suite).toBe('unit');
    await user.click(stopButton());
    expect(await inPanel().findByText('Cancelled')).toBeTruthy();
    expect(runner.calls('POST', `/api/admin/test-runner/runs/${id}/stop`)).toHaveLength(1);
    expect(inPanel().getByText('This run reported no coverage summary.')).toBeTruthy();
    const polls = runner.calls('GET', `/api/admin/test-runner/runs/${id}`).length;
    await new Promise((r) => setTimeout(r, POLL_MS * 5));
    expect(runner.calls('GET', `/api/admin/test-runner/runs/${id}`)).toHaveLength(polls);
  });

  it('409: says a run is already going on and follows that one', async () => {
    const { user, runner } = renderRunner();
    await inPanel().findByText('No server run yet.');
    const other = runner.begin('crypto', 'alice');
    runner.emit(other.id, ['vector 1 ok']);
    await user.click(runButton());
    expect(await inPanel().findByRole('alert')).toBeTruthy();
    expect(inPanel().getByRole('alert').textContent).toContain(TEST_RUNNER_MESSAGES.busy);
    await waitFor(() => expect(log().textContent).toBe('vector 1 ok'));
    expect(inPanel().getByText(/Crypto library, started by alice/)).toBeTruthy();
  });

  it('an admin without tests:run sees Run off and why; a 403 on start says it too', async () => {
    const runner = new FakeTestRunner();
    runner.admin = READ_ONLY_ADMIN;
    const first = renderRunner(runner);
    await inPanel().findByRole('radiogroup');
    expect(runButton().disabled).toBe(true);
    expect(runButton().getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(runButton().getAttribute('aria-describedby')!)!.textContent).toBe(
      NO_TESTS_RUN,
    );
    first.view.unmount();
    // The session call failed: Run is offered, and the server's 403 turns it off.
    runner.sessionFailure = () => json(503, { error: 'Service unavailable' });
    const { user } = renderRunner(runner);
    await inPanel().findByRole('radiogroup');
    await user.click(runButton());
    expect(await inPanel().findByRole('alert')).toBeTruthy();
    expect(inPanel().getByText(NO_TESTS_RUN)).toBeTruthy();
    expect(runButton().disabled).toBe(true);
  });

  it('picks up a run already going on when the page opens, and shows an error run’s reason', async () => {
    const runner = new FakeTestRunner();
    const going = runner.begin('crypto', 'alice');
    runner.emit(going.id, ['first', 'second']);
    renderRunner(runner);
    await waitFor(() => expect(log().textContent).toBe('first\nsecond'));
    expect(inPanel().getByText('Running')).toBeTruthy();
    expect((inPanel().getByRole('radio', { name: /Crypto library/ }) as HTMLInputElement).checked).toBe(true);
    act(() => {
      runner.finish(going.id, { status: 'error', error: 'The run timed out', droppedLines: 120 });
    });
    expect(await inPanel().findByText('Error')).toBeTruthy();
    expect(inPanel().getByText('The run timed out')).toBeTruthy();
    expect(inPanel().getByText(/120 more output lines were not kept/)).toBeTruthy();
  });

  it('a console session that ends mid-run shows the sign-in text; Check again follows the run anew', async () => {
    const runner = new FakeTestRunner();
    const going = runner.begin('crypto');
    runner.emit(going.id, ['one']);
    const { user } = renderRunner(runner);
    await waitFor(() => expect(log().textContent).toBe('one'));
    runner.admin = null;
    expect(await inPanel().findByText(SIGNED_OUT_TEXT)).toBeTruthy();
    runner.admin = READ_ONLY_ADMIN;
    runner.emit(going.id, ['two']);
    await user.click(inPanel().getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(log().textContent).toBe('one\ntwo'));
  });

  it('stops reading the output when the page closes', async () => {
    const runner = new FakeTestRunner();
    const going = runner.begin('unit');
    const { view } = renderRunner(runner);
    const path = `/api/admin/test-runner/runs/${going.id}`;
    await waitFor(() => expect(runner.calls('GET', path).length).toBeGreaterThan(1));
    view.unmount();
    const polls = runner.calls('GET', path).length;
    await new Promise((r) => setTimeout(r, POLL_MS * 5));
    expect(runner.calls('GET', path)).toHaveLength(polls);
  });

  it('is reachable by keyboard: the radio group, then Run, which runs the chosen suite', async () => {
    const { user, runner } = renderRunner();
    const first = (await inPanel().findByRole('radio', { name: /API contracts/ })) as HTMLInputElement;
    first.focus();
    await user.keyboard('{ArrowDown}');
    expect((inPanel().getByRole('radio', { name: /Crypto library/ }) as HTMLInputElement).checked).toBe(true);
    await user.tab();
    expect(document.activeElement).toBe(runButton());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(runner.calls('POST', '/api/admin/test-runner/runs')).toHaveLength(1));
    expect(runner.run(runner.ids.at(-1)!).suite).toBe('crypto');
    await waitFor(() => expect(stopButton().disabled).toBe(false));
    stopButton().focus();
    await user.keyboard('{Enter}');
    expect(await inPanel().findByText('Cancelled')).toBeTruthy();
  });
});

describe('the dialogs’ server runner sections', () => {
  it('show the last run’s coverage and result', async () => {
    const runner = new FakeTestRunner();
    const done = runner.begin('contracts');
    runner.finish(done.id, {
      status: 'passed',
      tests: { total: 40, passed: 40, failed: 0, skipped: 0 },
      coverage: COVERAGE,
    });
    const { user } = renderRunner(runner);
    expect(await inPanel().findByText('Passed')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'View Coverage' }));
    const coverage = screen.getByRole('dialog', { name: 'Coverage' });
    const section = within(coverage).getByRole('region', { name: 'Server runner coverage' });
    expect(section.textContent).toMatch(/^Server runner coverageAPI contracts, /);
    const table = within(section).getByRole('table', { name: 'Coverage of the last API contracts run' });
    expect(rowOf(table, 'Functions')).toBe('Functions18020090.0%');
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'CI/CD Status' }));
    const ci = within(screen.getByRole('dialog', { name: 'CI/CD Status' })).getByRole('region', {
      name: "Server runner's last result",
    });
    expect(ci.textContent).toContain('API contracts');
    expect(within(ci).getByText('Passed')).toBeTruthy();
    expect(ci.textContent).toContain('40 passed, 0 failed, 0 skipped, 40 total');
    expect(ci.textContent).toContain('91.2% (912 of 1000 lines)');
  });

  it.each([
    ['no run yet', (r: FakeTestRunner) => r, 'No server run yet.'],
    [
      'not signed in',
      (r: FakeTestRunner) => ((r.admin = null), r),
      'Not signed in to the admin console in this browser: its results are for admins.',
    ],
    [
      'not available',
      (r: FakeTestRunner) => ((r.enabled = false), r),
      `The server runner is not available: ${TEST_RUNNER_MESSAGES.off}`,
    ],
  ])('say why there is nothing: %s', async (_what, setUp, text) => {
    const { user } = renderRunner(setUp(new FakeTestRunner()));
    await waitFor(() => expect(inPanel().queryByText(/Asking the server/)).toBeNull());
    await user.click(screen.getByRole('button', { name: 'View Coverage' }));
    const coverage = screen.getByRole('dialog', { name: 'Coverage' });
    expect(within(coverage).getByRole('region', { name: 'Server runner coverage' }).textContent).toContain(
      text,
    );
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'CI/CD Status' }));
    expect(screen.getByRole('dialog', { name: 'CI/CD Status' }).textContent).toContain(text);
  });
});
