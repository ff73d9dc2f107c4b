import { useRef } from 'react';
import { Dialog } from '../../../components/dialog';
import type { About } from '../api/about';
import type { CheckContext, SuiteDefinition } from '../model/suite';
import type { ServerRunner } from '../model/use-server-runner';
import { ServerCoverageSection, ServerLastResultSection } from './server-runner-summary';

type Suites = SuiteDefinition<CheckContext>[];

export const DOCS_FILE = 'docs/testing-dashboard.md';

/** View Coverage: what each suite covers, and the server runner's last coverage summary. */
export function CoverageDialog({
  suites,
  server,
  onClose,
}: {
  suites: Suites;
  server: ServerRunner;
  onClose: () => void;
}) {
  return (
    <Dialog
      open
      title="Coverage"
      description="What each suite checks on this device and this server."
      onClose={onClose}
      size="lg"
    >
      {suites.map((suite) => (
        <section key={suite.id} className="testing-doc">
          <h3>{suite.name}</h3>
          <ul>
            {suite.covers.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </section>
      ))}
      <ServerCoverageSection runner={server} />
    </Dialog>
  );
}

/** Documentation: every check, why it matters and what to do; opened at `anchor` from a failed check. */
export function DocsDialog({
  suites,
  anchor,
  onClose,
}: {
  suites: Suites;
  anchor: string | null;
  onClose: () => void;
}) {
  const target = useRef<HTMLElement>(null);
  return (
    <Dialog
      open
      title="Documentation"
      description={
        <>
          What each check means and what to do when it fails (also in <code>{DOCS_FILE}</code>).
        </>
      }
      onClose={onClose}
      size="lg"
      initialFocusRef={anchor ? target : undefined}
    >
      {suites.map((suite) => (
        <section key={suite.id} className="testing-doc" aria-label={suite.name}>
          <h3>{suite.name}</h3>
          <p>{suite.description}</p>
          {suite.checks.map((check) => (
            <article
              key={check.id}
              id={`testing-doc-${check.docs}`}
              ref={check.docs === anchor ? target : undefined}
              tabIndex={-1}
              className={
                check.docs === anchor ? 'testing-doc__check testing-doc__check--target' : 'testing-doc__check'
              }
            >
              <h4>{check.name}</h4>
              <p>
                <strong>Why it matters:</strong> {check.why}
              </p>
              <p>
                <strong>What to do when it fails:</strong> {check.fix}
              </p>
              <p className="testing-muted">
                <code>
                  {DOCS_FILE}#{check.docs}
                </code>
                {check.quick ? ' · part of Quick Test' : ''}
              </p>
            </article>
          ))}
        </section>
      ))}
    </Dialog>
  );
}

/** CI/CD Status: the build the server says it runs, and the server runner's last result. */
export function CiStatusDialog({
  about,
  error,
  server,
  onClose,
}: {
  about: About | null;
  error: string | null;
  server: ServerRunner;
  onClose: () => void;
}) {
  return (
    <Dialog
      open
      title="CI/CD Status"
      description="The build this server runs, as it reports it."
      onClose={onClose}
    >
      {about ? (
        <dl className="testing-facts">
          <dt>Version</dt>
          <dd>{about.version}</dd>
          <dt>Commit</dt>
          <dd>
            <code>{about.commit}</code>
          </dd>
          <dt>Built</dt>
          <dd>{about.builtAt}</dd>
          <dt>Environment</dt>
          <dd>{about.environment}</dd>
        </dl>
      ) : (
        <p role="status">Loading…</p>
      )}
      {error ? <p className="testing-muted">{error}</p> : null}
      <ServerLastResultSection runner={server} />
    </Dialog>
  );
}
