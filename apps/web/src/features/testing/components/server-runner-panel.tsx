import { ErrorCode, TEST_RUNNER_LIMITS, TEST_RUNNER_MESSAGES, type TestRunnerStatus } from '@vault/contracts';
import { Button } from '../../../components/button';
import { RetryBanner } from '../../../components/retry-banner';
import type { ServerRunner } from '../model/use-server-runner';
import { ServerRunResult } from './server-run-result';
import { ServerRunnerControls, ServerRunProgress } from './server-runner-controls';
import { SuiteOutput } from './suite-output';

export const SIGNED_OUT_TEXT =
  "You are not signed in to the admin console in this browser. The runner is off unless the admin service's " +
  'TEST_RUNNER_ENABLED is true; when it is on, an admin signed in to the admin console in this browser can run it here.';
export const NOT_ADMIN_TEXT =
  'The account signed in to the admin console is not an admin: the server runner is for admins.';
export const NO_SYSTEM_READ_TEXT =
  'The admin signed in to the admin console does not have the system:read permission, which the server runner needs.';

/** Server runner (issue 15): this install's own test suites run on the server, for admins. */
export function ServerRunnerPanel({ runner }: { runner: ServerRunner }) {
  return (
    <section className="panel testing-server" aria-labelledby="testing-server-title">
      <h2 className="panel__title" id="testing-server-title">
        Server runner
      </h2>
      <div className="testing-server__body">
        <p className="testing-muted">
          Runs this install&apos;s own test suites on the server, one run at a time, and streams their output
          here. For admins only.
        </p>
        <ServerRunnerBody runner={runner} />
      </div>
    </section>
  );
}

function ServerRunnerBody({ runner }: { runner: ServerRunner }) {
  const { load } = runner;
  switch (load.kind) {
    case 'loading':
      return <p role="status">Asking the server about its test runner…</p>;
    case 'signed-out':
      return (
        <>
          <p>{SIGNED_OUT_TEXT}</p>
          <div className="testing-card__actions">
            <a className="btn btn--secondary btn--sm" href="/admin">
              Open the admin console
            </a>
            <Button size="sm" variant="ghost" onClick={runner.retry}>
              Check again
            </Button>
          </div>
        </>
      );
    case 'denied':
      return <p>{load.code === ErrorCode.ADMIN_REQUIRED ? NOT_ADMIN_TEXT : NO_SYSTEM_READ_TEXT}</p>;
    case 'error':
      return (
        <RetryBanner title="The server runner's status could not be loaded" onRetry={runner.retry}>
          {load.message}
        </RetryBanner>
      );
    case 'ready':
      return <ServerRunnerReady status={load.status} runner={runner} />;
  }
}

function ServerRunnerReady({ status, runner }: { status: TestRunnerStatus; runner: ServerRunner }) {
  if (!status.enabled || !status.available) {
    return (
      <>
        <p>{status.reason ?? (status.enabled ? TEST_RUNNER_MESSAGES.noSources : TEST_RUNNER_MESSAGES.off)}</p>
        <p className="testing-muted">
          How to turn it on: &ldquo;Server runner&rdquo; in <code>docs/testing-dashboard.md</code>, and the
          admin service&apos;s settings in <code>docs/operations.md</code>.
        </p>
      </>
    );
  }
  const { run } = runner;
  const estimate = status.suites.find((s) => s.id === run?.suite)?.estimatedSeconds ?? 0;
  return (
    <>
      <ServerRunnerControls suites={status.suites} runner={runner} />
      {run ? (
        <>
          <ServerRunProgress run={run} estimatedSeconds={estimate} />
          <SuiteOutput label="Server runner output" lines={runner.lines} />
          {runner.readError ? <p className="testing-muted">{runner.readError}</p> : null}
          {run.droppedLines > 0 ? (
            <p className="testing-muted">
              {run.droppedLines} more output lines were not kept (a run keeps its first{' '}
              {TEST_RUNNER_LIMITS.outputLinesMax}).
            </p>
          ) : null}
          <ServerRunResult run={run} />
        </>
      ) : (
        <p className="testing-muted">No server run yet.</p>
      )}
    </>
  );
}
