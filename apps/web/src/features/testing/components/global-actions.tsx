import { Button } from '../../../components/button';
import { SupportReportButton } from './support-report-button';

export interface GlobalActionsProps {
  /** Run All or Quick Test is going (Stop All replaces Run All). */
  batchRunning: boolean;
  /** Any suite is running or queued. */
  running: boolean;
  canReport: boolean;
  progress: { done: number; total: number };
  onRunAll: () => void;
  onStopAll: () => void;
  onQuickTest: () => void;
  onCoverage: () => void;
  onDownloadJson: () => void;
  onDownloadJunit: () => void;
  onDocs: () => void;
  onClear: () => void;
  onCiStatus: () => void;
  /** The redacted support report (Copy support report). */
  getSupportReport: () => Promise<string>;
}

/** The page's global actions and Overall Progress (finished checks of all the checks running). */
export function GlobalActions(props: GlobalActionsProps) {
  const { batchRunning, running, canReport, progress } = props;
  const percent = progress.total ? Math.round((progress.done / progress.total) * 100) : 0;
  return (
    <section className="panel testing-actions" aria-label="Global actions">
      <div className="testing-actions__row" role="group" aria-label="Run">
        {batchRunning ? (
          <Button variant="danger" onClick={props.onStopAll}>
            Stop All
          </Button>
        ) : (
          <Button onClick={props.onRunAll} disabled={running}>
            Run All
          </Button>
        )}
        <Button variant="secondary" onClick={props.onQuickTest} disabled={running}>
          Quick Test
        </Button>
      </div>
      <div className="testing-actions__row" role="group" aria-label="Results">
        <Button variant="secondary" onClick={props.onDownloadJson} disabled={!canReport}>
          Download Report (JSON)
        </Button>
        <Button variant="secondary" onClick={props.onDownloadJunit} disabled={!canReport}>
          Download Report (JUnit XML)
        </Button>
        <Button variant="secondary" onClick={props.onClear} disabled={running}>
          Clear Results
        </Button>
        <SupportReportButton getReport={props.getSupportReport} />
      </div>
      <div className="testing-actions__row" role="group" aria-label="About the tests">
        <Button variant="ghost" onClick={props.onCoverage}>
          View Coverage
        </Button>
        <Button variant="ghost" onClick={props.onDocs}>
          Documentation
        </Button>
        <Button variant="ghost" onClick={props.onCiStatus}>
          CI/CD Status
        </Button>
      </div>
      <div className="testing-progress">
        <label htmlFor="testing-progress" className="testing-progress__label">
          Overall Progress
        </label>
        <progress
          id="testing-progress"
          max={progress.total || 1}
          value={progress.done}
          aria-valuetext={`${percent}%`}
        />
        <span className="testing-muted">
          {progress.total
            ? `${progress.done} of ${progress.total} checks (${percent}%)`
            : 'Nothing has run yet'}
        </span>
      </div>
    </section>
  );
}
