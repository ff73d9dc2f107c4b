import { useCallback, useEffect, useMemo, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { downloadFile } from '../../../lib/download-file';
import { UNKNOWN_ABOUT, type About } from '../api/about';
import type { ServerRunnerApi } from '../api/server-runner';
import type { CheckContext, SuiteDefinition, SuiteId, SuiteRun } from '../model/suite';
import { useServerRunner } from '../model/use-server-runner';
import { jsonReport, reportFileName, serializeJsonReport } from '../reports/json-report';
import { junitReport } from '../reports/junit-report';
import type { SupportInfo } from '../reports/support-info';
import { supportReport } from '../reports/support-report';
import { useSuiteRuns } from '../runner/use-suite-runs';
import type { RecentRunsStore } from '../store/recent-runs';
import { GlobalActions } from './global-actions';
import { CiStatusDialog, CoverageDialog, DocsDialog } from './info-dialogs';
import { RecentResults } from './recent-results';
import { ServerRunnerPanel } from './server-runner-panel';
import { SuiteCard } from './suite-card';
import './testing.css';

export interface TestingDashboardProps<Ctx extends CheckContext> {
  suites: SuiteDefinition<Ctx>[];
  makeCtx: (base: CheckContext) => Ctx;
  store: RecentRunsStore;
  loadAbout: (signal: AbortSignal) => Promise<About>;
  /** Browser and server settings for Copy support report. */
  loadSupportInfo: () => Promise<SupportInfo>;
  /** The server runner's calls, with the admin console's session. */
  serverRunner: ServerRunnerApi;
  /** How often the server runner's output is read while a run goes on (tests shorten it). */
  serverPollMs?: number;
}

type OpenDialog =
  { kind: 'coverage' } | { kind: 'docs'; anchor: string | null } | { kind: 'ci' } | { kind: 'clear' };

/** The latest run of each suite: this visit's first, then the ones kept on the device. */
function latestPerSuite(session: SuiteRun[], recent: SuiteRun[]): SuiteRun[] {
  const seen = new Set<SuiteId>();
  return [...session, ...recent].filter((run) => !seen.has(run.suiteId) && Boolean(seen.add(run.suiteId)));
}

/** The testing dashboard (issue 15): five suites measured on this device against this server. */
export function TestingDashboard<Ctx extends CheckContext>({
  suites,
  makeCtx,
  store,
  loadAbout,
  loadSupportInfo,
  serverRunner,
  serverPollMs,
}: TestingDashboardProps<Ctx>) {
  const [recent, setRecent] = useState<SuiteRun[]>([]);
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const [about, setAbout] = useState<About | null>(null);
  const [aboutError, setAboutError] = useState<string | null>(null);
  const [clearing, setClearing] = useState(false);

  const onRunEnd = useCallback((run: SuiteRun) => void store.add(run).then(setRecent), [store]);
  const runs = useSuiteRuns(suites, makeCtx, onRunEnd);
  const server = useServerRunner(serverRunner, serverPollMs === undefined ? {} : { pollMs: serverPollMs });

  useEffect(() => {
    let live = true;
    void store.list().then((list) => live && setRecent(list));
    return () => {
      live = false;
    };
  }, [store]);
  useEffect(() => {
    const controller = new AbortController();
    loadAbout(controller.signal).then(setAbout, (error: unknown) => {
      if (controller.signal.aborted) return;
      setAbout(UNKNOWN_ABOUT);
      setAboutError(
        `The server did not say which build it runs (${error instanceof Error ? error.message : 'no answer'}).`,
      );
    });
    return () => controller.abort();
  }, [loadAbout]);

  const nameOf = useCallback((id: SuiteId) => suites.find((s) => s.id === id)?.name ?? id, [suites]);
  const reportRuns = useMemo(() => {
    const session = suites.flatMap((s) => {
      const last = runs.states[s.id]?.lastRun;
      return last ? [last] : [];
    });
    return latestPerSuite(session, recent);
  }, [suites, runs.states, recent]);

  const download = (kind: 'json' | 'xml') => {
    const now = new Date();
    const build = about ?? UNKNOWN_ABOUT;
    if (kind === 'json') {
      const report = jsonReport(reportRuns, { version: build.version, commit: build.commit }, now);
      downloadFile(reportFileName(now, 'json'), serializeJsonReport(report), { type: 'application/json' });
    } else {
      downloadFile(reportFileName(now, 'xml'), junitReport(reportRuns, nameOf), { type: 'application/xml' });
    }
  };

  const getSupportReport = async () =>
    supportReport({ ...(await loadSupportInfo()), about: about ?? UNKNOWN_ABOUT, runs: reportRuns, nameOf });

  const clearResults = async () => {
    setClearing(true);
    try {
      runs.clear();
      await store.clear();
      setRecent([]);
    } finally {
      setClearing(false);
      setDialog(null);
    }
  };

  return (
    <div className="page testing-page">
      <PageHeader
        title="Testing Dashboard"
        description="Five suites that check, on this device and against this server, that your data stays safe and fast. Every result is measured here."
      />
      <GlobalActions
        batchRunning={runs.batchRunning}
        running={runs.running}
        canReport={reportRuns.length > 0}
        progress={runs.progress}
        onRunAll={() => void runs.runAll(false)}
        onStopAll={runs.stopAll}
        onQuickTest={() => void runs.runAll(true)}
        onCoverage={() => setDialog({ kind: 'coverage' })}
        onDownloadJson={() => download('json')}
        onDownloadJunit={() => download('xml')}
        onDocs={() => setDialog({ kind: 'docs', anchor: null })}
        onClear={() => setDialog({ kind: 'clear' })}
        onCiStatus={() => setDialog({ kind: 'ci' })}
        getSupportReport={getSupportReport}
      />
      {suites.length === 0 ? (
        <p className="panel testing-muted">No test suites are available in this build.</p>
      ) : null}
      <div className="testing-grid">
        {suites.map((suite) => (
          <SuiteCard
            key={suite.id}
            suite={suite as SuiteDefinition<CheckContext>}
            state={runs.states[suite.id]!}
            busy={runs.running}
            onRun={() => runs.run(suite.id)}
            onStop={() => runs.stop(suite.id)}
            onOpenDocs={(anchor) => setDialog({ kind: 'docs', anchor })}
          />
        ))}
      </div>
      <ServerRunnerPanel runner={server} />
      <RecentResults runs={recent} nameOf={nameOf} />
      {dialog?.kind === 'coverage' ? (
        <CoverageDialog
          suites={suites as SuiteDefinition<CheckContext>[]}
          server={server}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog?.kind === 'docs' ? (
        <DocsDialog
          suites={suites as SuiteDefinition<CheckContext>[]}
          anchor={dialog.anchor}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog?.kind === 'ci' ? (
        <CiStatusDialog about={about} error={aboutError} server={server} onClose={() => setDialog(null)} />
      ) : null}
      <ConfirmDialog
        open={dialog?.kind === 'clear'}
        title="Clear results?"
        message="This clears the results on this page and the recent results kept on this device. It cannot be undone."
        confirmLabel="Clear Results"
        busy={clearing}
        onConfirm={() => void clearResults()}
        onCancel={() => setDialog(null)}
      />
    </div>
  );
}
