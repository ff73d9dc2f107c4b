import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CheckContext, RunStatus, SuiteDefinition, SuiteId, SuiteRun } from '../model/suite';
import { plannedChecks, runSuite, type RunEvent } from './run-suite';

/** One card's state: the run going on (or the last one), streamed as it happens. */
export interface SuiteState {
  status: RunStatus;
  /** Waiting its turn in Run All or Quick Test. */
  queued: boolean;
  /** Checks this run will start, and how many have finished. */
  planned: number;
  done: number;
  output: string[];
  /** The last finished run (this page visit). */
  lastRun: SuiteRun | null;
}

const IDLE: SuiteState = { status: 'idle', queued: false, planned: 0, done: 0, output: [], lastRun: null };

function initialStates(suites: SuiteDefinition<never>[]): Partial<Record<SuiteId, SuiteState>> {
  return Object.fromEntries(suites.map((s) => [s.id, IDLE]));
}

/**
 * The page's runs: each suite with its own AbortController (Stop), Run All and Quick Test running
 * the suites one after another (Stop All), and Overall Progress over what is running. Leaving the
 * page stops everything. `onRunEnd` gets every finished run (Recent Test Results).
 */
export function useSuiteRuns<Ctx extends CheckContext>(
  suites: SuiteDefinition<Ctx>[],
  makeCtx: (base: CheckContext) => Ctx,
  onRunEnd?: (run: SuiteRun) => void,
) {
  const [states, setStates] = useState(() => initialStates(suites as SuiteDefinition<never>[]));
  const [scope, setScope] = useState<SuiteId[]>([]);
  const [batchRunning, setBatchRunning] = useState(false);
  const controllers = useRef(new Map<SuiteId, AbortController>());
  const batch = useRef<AbortController | null>(null);
  const latest = useRef({ makeCtx, onRunEnd });
  useEffect(() => {
    latest.current = { makeCtx, onRunEnd };
  });
  useEffect(() => {
    const running = controllers.current;
    return () => {
      batch.current?.abort();
      for (const controller of running.values()) controller.abort();
    };
  }, []);

  const patch = useCallback((id: SuiteId, change: (s: SuiteState) => Partial<SuiteState>) => {
    setStates((all) => {
      const current = all[id] ?? IDLE;
      return { ...all, [id]: { ...current, ...change(current) } };
    });
  }, []);

  const onEvent = useCallback(
    (event: RunEvent) => {
      switch (event.type) {
        case 'suite-start':
          return patch(event.suiteId, () => ({
            status: 'running',
            queued: false,
            planned: event.total,
            done: 0,
            output: [],
          }));
        case 'output':
          return patch(event.suiteId, (s) => ({ output: [...s.output, event.line] }));
        case 'check-end':
          return patch(event.suiteId, (s) => ({ done: s.done + 1 }));
        case 'suite-end':
          return patch(event.run.suiteId, () => ({ status: event.run.status, lastRun: event.run }));
        default:
          return undefined;
      }
    },
    [patch],
  );

  const runOne = useCallback(
    async (suite: SuiteDefinition<Ctx>, quick: boolean, parent?: AbortSignal): Promise<SuiteRun | null> => {
      if (controllers.current.has(suite.id) || parent?.aborted) return null;
      const controller = new AbortController();
      const stopWithParent = () => controller.abort();
      parent?.addEventListener('abort', stopWithParent, { once: true });
      controllers.current.set(suite.id, controller);
      try {
        const run = await runSuite(suite, (base) => latest.current.makeCtx(base), {
          quick,
          signal: controller.signal,
          onEvent,
        });
        latest.current.onRunEnd?.(run);
        return run;
      } finally {
        parent?.removeEventListener('abort', stopWithParent);
        controllers.current.delete(suite.id);
      }
    },
    [onEvent],
  );

  const run = useCallback(
    (id: SuiteId, quick = false) => {
      const suite = suites.find((s) => s.id === id);
      if (!suite || controllers.current.has(id)) return;
      // A run started while nothing runs begins a new Overall Progress; else it joins the current one.
      const fresh = controllers.current.size === 0;
      setScope((ids) => (fresh ? [id] : ids.includes(id) ? ids : [...ids, id]));
      patch(id, () => ({ planned: plannedChecks(suite, quick).length, done: 0 }));
      void runOne(suite, quick);
    },
    [suites, patch, runOne],
  );

  const runAll = useCallback(
    async (quick: boolean) => {
      if (batch.current || controllers.current.size > 0) return;
      const controller = new AbortController();
      batch.current = controller;
      setBatchRunning(true);
      setScope(suites.map((s) => s.id));
      for (const suite of suites) {
        patch(suite.id, () => ({ queued: true, planned: plannedChecks(suite, quick).length, done: 0 }));
      }
      try {
        for (const suite of suites) {
          if (controller.signal.aborted) break;
          await runOne(suite, quick, controller.signal);
        }
      } finally {
        // What Stop All left waiting never started: it no longer counts in Overall Progress.
        setStates((all) => {
          const next = { ...all };
          for (const suite of suites) {
            const s = next[suite.id] ?? IDLE;
            if (s.queued) next[suite.id] = { ...s, queued: false, planned: 0, done: 0 };
          }
          return next;
        });
        batch.current = null;
        setBatchRunning(false);
      }
    },
    [suites, patch, runOne],
  );

  const stop = useCallback((id: SuiteId) => controllers.current.get(id)?.abort(), []);
  const stopAll = useCallback(() => {
    batch.current?.abort();
    for (const controller of controllers.current.values()) controller.abort();
  }, []);
  const clear = useCallback(() => {
    stopAll();
    setStates(initialStates(suites as SuiteDefinition<never>[]));
    setScope([]);
  }, [stopAll, suites]);

  const progress = useMemo(() => {
    let done = 0;
    let total = 0;
    for (const id of scope) {
      done += states[id]?.done ?? 0;
      total += states[id]?.planned ?? 0;
    }
    return { done, total };
  }, [scope, states]);
  const running = Object.values(states).some((s) => s.status === 'running' || s.queued);

  return { states, run, stop, runAll, stopAll, clear, progress, running, batchRunning };
}
