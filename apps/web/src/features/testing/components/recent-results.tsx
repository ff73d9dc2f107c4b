import { formatDateTime } from '../../../lib/format';
import type { SuiteId, SuiteRun } from '../model/suite';
import { formatDuration } from './format-duration';
import { StatusBadge } from './status-badge';

/** Recent Test Results: the latest runs kept on this device, newest first. */
export function RecentResults({ runs, nameOf }: { runs: SuiteRun[]; nameOf: (id: SuiteId) => string }) {
  return (
    <section className="panel testing-recent" aria-labelledby="testing-recent-title">
      <h2 className="panel__title" id="testing-recent-title">
        Recent Test Results
      </h2>
      {runs.length === 0 ? (
        <p className="testing-muted">No results yet. Runs are kept on this device only.</p>
      ) : (
        <ol className="testing-recent__list">
          {runs.map((run) => {
            const passed = run.checks.filter((c) => c.status === 'passed').length;
            return (
              <li key={`${run.suiteId}-${run.startedAt}`} className="testing-recent__item">
                <span className="testing-recent__name">
                  {nameOf(run.suiteId)}
                  {run.quick ? ' (quick)' : ''}
                </span>
                <StatusBadge status={run.status} />
                <span>
                  {passed} of {run.checks.length} passed
                </span>
                <span>{formatDuration(run.durationMs)}</span>
                <time dateTime={run.startedAt}>{formatDateTime(run.startedAt)}</time>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
