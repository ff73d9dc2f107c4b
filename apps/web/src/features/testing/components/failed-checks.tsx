import { Button } from '../../../components/button';
import type { CheckResult } from '../model/suite';

/**
 * The checks that failed (or warned), each saying what, why it matters and what to do, with the
 * way to its documentation, as Nextcloud's setup checks do.
 */
export function FailedChecks({
  checks,
  onOpenDocs,
}: {
  checks: CheckResult[];
  onOpenDocs: (anchor: string) => void;
}) {
  const shown = checks.filter((c) => c.status === 'failed' || c.status === 'warning');
  if (shown.length === 0) return null;
  return (
    <ul className="testing-failures" aria-label="Checks to look at">
      {shown.map((check) => (
        <li key={check.id} className={`testing-failure testing-failure--${check.status}`}>
          <p className="testing-failure__title">
            <strong>{check.status === 'failed' ? 'Failed' : 'Warning'}:</strong> {check.name}
          </p>
          <p className="testing-failure__detail">{check.detail}</p>
          {check.why ? (
            <p>
              <strong>Why it matters:</strong> {check.why}
            </p>
          ) : null}
          {check.fix ? (
            <p>
              <strong>What to do:</strong> {check.fix}
            </p>
          ) : null}
          {check.docs ? (
            <Button variant="link" size="sm" onClick={() => onOpenDocs(check.docs!)}>
              Documentation for “{check.name}”
            </Button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
