import type { ServerTestRun } from '@vault/contracts';
import { formatDateTime } from '../../../lib/format';
import type { ServerRunner } from '../model/use-server-runner';
import { CoverageTable, percent, serverSuiteName, testCounts } from './server-run-result';
import { ServerStatusBadge } from './status-badge';

/** The server runner's last finished run: the one followed here once it ended, else the status's. */
export function lastServerRun(runner: ServerRunner): ServerTestRun | null {
  if (runner.run && runner.run.status !== 'running') return runner.run;
  return runner.load.kind === 'ready' ? runner.load.status.last : null;
}

/** Why there is no last run to show. */
function whyNone(runner: ServerRunner): string {
  const { load } = runner;
  switch (load.kind) {
    case 'loading':
      return 'Still asking the server about its test runner.';
    case 'signed-out':
      return 'Not signed in to the admin console in this browser: its results are for admins.';
    case 'denied':
      return 'The account signed in to the admin console cannot see the server runner.';
    case 'error':
      return `The server runner's status could not be loaded (${load.message}).`;
    case 'ready':
      if (!load.status.enabled || !load.status.available) {
        return `The server runner is not available: ${load.status.reason ?? 'it is off'}`;
      }
      return 'No server run yet.';
  }
}

const when = (run: ServerTestRun) => formatDateTime(run.finishedAt ?? run.startedAt);

/** View Coverage: the last server run's coverage summary, or why there is none. */
export function ServerCoverageSection({ runner }: { runner: ServerRunner }) {
  const last = lastServerRun(runner);
  return (
    <section className="testing-doc" aria-labelledby="testing-server-coverage">
      <h3 id="testing-server-coverage">Server runner coverage</h3>
      {!last ? (
        <p className="testing-muted">{whyNone(runner)}</p>
      ) : (
        <>
          <p>
            {serverSuiteName(last.suite)},{' '}
            <time dateTime={last.finishedAt ?? last.startedAt}>{when(last)}</time>
          </p>
          {last.coverage ? (
            <CoverageTable
              coverage={last.coverage}
              caption={`Coverage of the last ${serverSuiteName(last.suite)} run`}
            />
          ) : (
            <p className="testing-muted">That run reported no coverage summary.</p>
          )}
        </>
      )}
    </section>
  );
}

/** CI/CD Status: the server runner's last result, or why there is none. */
export function ServerLastResultSection({ runner }: { runner: ServerRunner }) {
  const last = lastServerRun(runner);
  return (
    <section className="testing-doc" aria-labelledby="testing-server-last">
      <h3 id="testing-server-last">Server runner&apos;s last result</h3>
      {!last ? (
        <p className="testing-muted">{whyNone(runner)}</p>
      ) : (
        <dl className="testing-facts">
          <dt>Suite</dt>
          <dd>{serverSuiteName(last.suite)}</dd>
          <dt>Status</dt>
          <dd>
            <ServerStatusBadge status={last.status} />
          </dd>
          <dt>When</dt>
          <dd>
            <time dateTime={last.finishedAt ?? last.startedAt}>{when(last)}</time>
          </dd>
          <dt>Tests</dt>
          <dd>{testCounts(last)}</dd>
          <dt>Line coverage</dt>
          <dd>
            {last.coverage
              ? `${percent(last.coverage.lines)} (${last.coverage.lines.covered} of ${last.coverage.lines.total} lines)`
              : 'not reported'}
          </dd>
        </dl>
      )}
    </section>
  );
}
