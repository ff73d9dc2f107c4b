import type { ServerTestRunStatus } from '@vault/contracts';
import type { RunStatus } from '../model/suite';

export const STATUS_TEXT: Record<RunStatus, string> = {
  idle: 'Idle',
  running: 'Running',
  passed: 'Passed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** A run's status as text (never colour alone). */
export function StatusBadge({ status, queued = false }: { status: RunStatus; queued?: boolean }) {
  return (
    <span className={`testing-badge testing-badge--${queued ? 'queued' : status}`}>
      {queued ? 'Queued' : STATUS_TEXT[status]}
    </span>
  );
}

/** A server run's status: as the suites' badge, and "Error" (a run that did not start or crashed). */
export function ServerStatusBadge({ status }: { status: ServerTestRunStatus }) {
  return status === 'error' ? (
    <span className="testing-badge testing-badge--failed">Error</span>
  ) : (
    <StatusBadge status={status} />
  );
}
