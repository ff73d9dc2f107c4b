import {
  SERVER_TEST_SUITES,
  type CoverageMetric,
  type CoverageSummary,
  type ServerTestRun,
} from '@vault/contracts';
import { Banner } from '../../../components/banner';
import { formatDuration } from './format-duration';

const METRICS = [
  ['lines', 'Lines'],
  ['statements', 'Statements'],
  ['functions', 'Functions'],
  ['branches', 'Branches'],
] as const;

export function serverSuiteName(id: ServerTestRun['suite']): string {
  return SERVER_TEST_SUITES.find((s) => s.id === id)?.name ?? id;
}

export const percent = (metric: CoverageMetric) => `${metric.pct.toFixed(1)}%`;

/** "12 passed, 1 failed, 0 skipped of 13": what the runner's own report counted. */
export function testCounts(run: ServerTestRun): string {
  const t = run.tests;
  if (!t) return 'not reported';
  return `${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped, ${t.total} total`;
}

function MetricCells({ metric }: { metric: CoverageMetric }) {
  return (
    <>
      <td>{metric.covered}</td>
      <td>{metric.total}</td>
      <td>{percent(metric)}</td>
    </>
  );
}

/** A run's coverage summary: the totals, then the line coverage of each folder. */
export function CoverageTable({ coverage, caption }: { coverage: CoverageSummary; caption: string }) {
  return (
    <table className="testing-coverage">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Measure</th>
          <th scope="col">Covered</th>
          <th scope="col">Total</th>
          <th scope="col">Coverage</th>
        </tr>
      </thead>
      <tbody>
        {METRICS.map(([key, label]) => (
          <tr key={key}>
            <th scope="row">{label}</th>
            <MetricCells metric={coverage[key]} />
          </tr>
        ))}
      </tbody>
      {coverage.folders.length ? (
        <tbody>
          <tr>
            <th scope="colgroup" colSpan={4} className="testing-coverage__group">
              Lines by folder
            </th>
          </tr>
          {coverage.folders.map((folder) => (
            <tr key={folder.path}>
              <th scope="row">
                <code>{folder.path}</code>
              </th>
              <MetricCells metric={folder.lines} />
            </tr>
          ))}
        </tbody>
      ) : null}
    </table>
  );
}

/** A finished server run: its test counts, duration, error and coverage. */
export function ServerRunResult({ run }: { run: ServerTestRun }) {
  if (run.status === 'running') return null;
  return (
    <div className="testing-server__result">
      <dl className="testing-facts">
        <dt>Tests</dt>
        <dd>{testCounts(run)}</dd>
        <dt>Duration</dt>
        <dd>{run.durationMs === null ? 'unknown' : formatDuration(run.durationMs)}</dd>
      </dl>
      {run.error ? (
        <Banner tone="danger" title="The run did not finish">
          {run.error}
        </Banner>
      ) : null}
      {run.coverage ? (
        <CoverageTable
          coverage={run.coverage}
          caption={`Coverage of this ${serverSuiteName(run.suite)} run`}
        />
      ) : (
        <p className="testing-muted">This run reported no coverage summary.</p>
      )}
    </div>
  );
}
