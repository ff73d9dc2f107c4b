import type { ServerTestRun, ServerTestSuiteId, TestRunnerStatus } from '@vault/contracts';
import { useEffect, useId, useState } from 'react';
import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import type { ServerRunner } from '../model/use-server-runner';
import { formatDuration } from './format-duration';
import { serverSuiteName } from './server-run-result';
import { ServerStatusBadge } from './status-badge';

type Suites = TestRunnerStatus['suites'];

export const NO_TESTS_RUN =
  'Your admin account does not have the tests:run permission, which starting and stopping server runs needs.';
export const ONE_AT_A_TIME = 'One run at a time: wait for this one to end, or stop it.';

/** The suites to choose from (a radio group), Run and Stop, and why Run is off when it is. */
export function ServerRunnerControls({ suites, runner }: { suites: Suites; runner: ServerRunner }) {
  const id = useId();
  const running = runner.run?.status === 'running';
  const [choice, setChoice] = useState<ServerTestSuiteId | undefined>(
    running ? runner.run?.suite : suites[0]?.id,
  );
  const why = runner.canRun === false ? NO_TESTS_RUN : running ? ONE_AT_A_TIME : null;
  return (
    <>
      <fieldset className="testing-server__suites" role="radiogroup" aria-labelledby={`${id}-legend`}>
        <legend id={`${id}-legend`} className="testing-server__legend">
          Suite to run on the server
        </legend>
        {suites.map((suite) => (
          <label key={suite.id} className="testing-server__suite">
            <input
              type="radio"
              name={`${id}-suite`}
              value={suite.id}
              checked={choice === suite.id}
              onChange={() => setChoice(suite.id)}
            />
            <span>
              <span className="testing-server__suite-name">{suite.name}</span>{' '}
              <span className="testing-muted">(about {formatDuration(suite.estimatedSeconds * 1000)})</span>
              <span className="testing-server__suite-description">{suite.description}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="testing-card__actions">
        <Button
          size="sm"
          onClick={() => choice && void runner.start(choice)}
          disabled={Boolean(why) || !choice || runner.busy !== null}
          loading={runner.busy === 'starting'}
          aria-describedby={why ? `${id}-why` : undefined}
        >
          Run on server
        </Button>
        <Button
          size="sm"
          variant="secondary"
          onClick={() => void runner.stop()}
          disabled={!running || runner.canRun === false || runner.busy !== null}
          loading={runner.busy === 'stopping'}
        >
          Stop server run
        </Button>
      </div>
      {why ? (
        <p id={`${id}-why`} className="testing-muted">
          {why}
        </p>
      ) : null}
      {runner.notice ? (
        <Banner tone="warning" role="alert">
          {runner.notice}
        </Banner>
      ) : null}
    </>
  );
}

/** The followed run's status, elapsed time against the estimate, and a progress bar. */
export function ServerRunProgress({
  run,
  estimatedSeconds,
}: {
  run: ServerTestRun;
  estimatedSeconds: number;
}) {
  const running = run.status === 'running';
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  const estimateMs = Math.max(1, estimatedSeconds * 1000);
  const elapsed = running ? Math.max(0, now - Date.parse(run.startedAt)) : (run.durationMs ?? 0);
  // The estimate is a guess: the bar stays below 100 % until the run says it finished.
  const done = run.status === 'passed' || run.status === 'failed';
  const pct = done ? 100 : Math.min(99, Math.floor((elapsed / estimateMs) * 100));
  return (
    <div className="testing-progress testing-server__progress">
      <span className="testing-server__status">
        <ServerStatusBadge status={run.status} /> {serverSuiteName(run.suite)}, started by {run.startedBy}
      </span>
      <progress
        max={100}
        value={pct}
        aria-label="Server run progress"
        aria-valuetext={done ? 'Finished' : `${pct}% of the estimated time`}
      />
      <span className="testing-muted">
        {formatDuration(elapsed)} of about {formatDuration(estimateMs)} estimated
      </span>
    </div>
  );
}
