import { useId } from 'react';
import { Button } from '../../../components/button';
import { ESTIMATED_MS, type CheckContext, type SuiteDefinition } from '../model/suite';
import type { SuiteState } from '../runner/use-suite-runs';
import { FailedChecks } from './failed-checks';
import { formatDuration } from './format-duration';
import { StatusBadge } from './status-badge';
import { SuiteOutput } from './suite-output';

export interface SuiteCardProps {
  suite: SuiteDefinition<CheckContext>;
  state: SuiteState;
  /** A suite is running or queued: one at a time, so no run skews another's timings. */
  busy: boolean;
  onRun: () => void;
  onStop: () => void;
  onOpenDocs: (anchor: string) => void;
}

/** One suite: what it is, its estimate beside its last real duration, Run and Stop, and its output. */
export function SuiteCard({ suite, state, busy, onRun, onStop, onOpenDocs }: SuiteCardProps) {
  const titleId = useId();
  const running = state.status === 'running';
  const last = state.lastRun;
  return (
    <section className="panel testing-card" aria-labelledby={titleId}>
      <header className="testing-card__header">
        <div>
          <h2 className="testing-card__title" id={titleId}>
            {suite.name}
          </h2>
          <p className="testing-card__description">{suite.description}</p>
        </div>
        <StatusBadge status={state.status} queued={state.queued} />
      </header>
      <dl className="testing-card__facts">
        <div>
          <dt>Category</dt>
          <dd>{suite.category}</dd>
        </div>
        <div>
          <dt>Estimated</dt>
          <dd>{formatDuration(ESTIMATED_MS[suite.id])}</dd>
        </div>
        <div>
          <dt>Last run</dt>
          <dd>{last ? `${formatDuration(last.durationMs)}${last.quick ? ' (quick)' : ''}` : 'not yet'}</dd>
        </div>
        <div>
          <dt>Checks</dt>
          <dd>
            {running || state.queued
              ? `${state.done} of ${state.planned}`
              : last
                ? last.checks.length
                : suite.checks.length}
          </dd>
        </div>
        <div>
          <dt>Errors</dt>
          <dd>{last && !running ? last.errors.length : 0}</dd>
        </div>
      </dl>
      <div className="testing-card__actions">
        <Button
          size="sm"
          onClick={onRun}
          disabled={running || state.queued || busy}
          aria-label={`Run ${suite.name}`}
        >
          Run
        </Button>
        <Button
          size="sm"
          variant="secondary"
          onClick={onStop}
          disabled={!running}
          aria-label={`Stop ${suite.name}`}
        >
          Stop
        </Button>
      </div>
      <SuiteOutput label={`${suite.name} output`} lines={state.output} />
      {last && !running ? <FailedChecks checks={last.checks} onOpenDocs={onOpenDocs} /> : null}
    </section>
  );
}
