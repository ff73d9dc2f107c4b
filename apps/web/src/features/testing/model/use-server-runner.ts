import {
  ErrorCode,
  TEST_RUNNER_LIMITS,
  hasPermission,
  type ServerTestRun,
  type ServerTestSuiteId,
  type TestRunnerStatus,
} from '@vault/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbortError } from '../../../lib/api-client';
import { isApiError, messageOf } from '../../../lib/api-error';
import type { ServerRunnerApi } from '../api/server-runner';

/** What the runner's status call answered: the panel's states (docs/testing-dashboard.md "Server runner"). */
export type ServerRunnerLoad =
  | { kind: 'loading' }
  /** 401: no admin console session in this browser. */
  | { kind: 'signed-out' }
  /** 403 ADMIN_REQUIRED or PERMISSION_DENIED (no system:read). */
  | { kind: 'denied'; code: string | undefined; message: string }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; status: TestRunnerStatus };

export interface ServerRunner {
  load: ServerRunnerLoad;
  /** The signed-in admin may start and stop runs (tests:run); null while unknown. */
  canRun: boolean | null;
  /** The run followed (the one going on, else the last), as the server last described it. */
  run: ServerTestRun | null;
  /** Its output so far, in order. */
  lines: string[];
  busy: 'starting' | 'stopping' | null;
  /** Why the last action failed (409 busy, 403 ...). */
  notice: string | null;
  /** Why the followed run's output could not be read (while it is so). */
  readError: string | null;
  retry: () => void;
  start: (suite: ServerTestSuiteId) => Promise<void>;
  stop: () => Promise<void>;
}

const DENIED_CODES: ReadonlySet<string> = new Set([ErrorCode.ADMIN_REQUIRED, ErrorCode.PERMISSION_DENIED]);

function loadFailure(error: unknown): ServerRunnerLoad {
  if (isApiError(error, 401)) return { kind: 'signed-out' };
  if (isApiError(error, 403) && error.code && DENIED_CODES.has(error.code)) {
    return { kind: 'denied', code: error.code, message: error.message };
  }
  return { kind: 'error', message: messageOf(error, 'The server did not answer.') };
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/**
 * The server runner's state: the status on mount, Run and Stop, and the followed run's output
 * read by offset every `pollMs` while it runs (one call at a time: the next waits for the last).
 */
export function useServerRunner(
  api: ServerRunnerApi,
  { pollMs = 1000 }: { pollMs?: number } = {},
): ServerRunner {
  const [load, setLoad] = useState<ServerRunnerLoad>({ kind: 'loading' });
  const [canRun, setCanRun] = useState<boolean | null>(null);
  const [run, setRun] = useState<ServerTestRun | null>(null);
  const [lines, setLines] = useState<string[]>([]);
  const [busy, setBusy] = useState<ServerRunner['busy']>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  // The mount's signal (aborted on unmount) and the follower's, one run at a time.
  const life = useRef(new AbortController());
  const follower = useRef<{ id: string; controller: AbortController } | null>(null);
  const refreshRef = useRef<() => Promise<void>>(async () => undefined);

  const follow = useCallback(
    (target: ServerTestRun) => {
      follower.current?.controller.abort();
      const controller = new AbortController();
      follower.current = { id: target.id, controller };
      const { signal } = controller;
      life.current.signal.addEventListener('abort', () => controller.abort(), { once: true });
      setRun(target);
      setLines([]);
      setReadError(null);
      void (async () => {
        let from = 0;
        while (!signal.aborted) {
          let out;
          try {
            out = await api.output(target.id, from, signal);
          } catch (error) {
            if (signal.aborted || isAbortError(error)) return;
            if (isApiError(error, 401)) {
              // Signed in again (Check again), the run is read anew from its first line.
              if (follower.current?.controller === controller) follower.current = null;
              setLoad({ kind: 'signed-out' });
              return;
            }
            // A 4xx will not change by asking again (the run is gone); anything else may.
            if (isApiError(error) && error.status >= 400 && error.status < 500) {
              setReadError(`The run's output could not be read: ${error.message}.`);
              break;
            }
            setReadError(
              `The run's output could not be read (${messageOf(error, 'no answer')}); trying again.`,
            );
            await pause(pollMs, signal);
            continue;
          }
          if (signal.aborted) return;
          const page = out;
          from = page.next;
          setReadError(null);
          setRun(page.run);
          if (page.lines.length) setLines((prev) => [...prev, ...page.lines]);
          const drained = page.lines.length === 0 || page.next >= page.run.lines;
          if (page.run.status !== 'running' && drained) break;
          // A full page may have more behind it: read on at once.
          if (page.lines.length < TEST_RUNNER_LIMITS.outputPageMax) await pause(pollMs, signal);
        }
        // The run ended while followed: the status's `current` and `last` have moved on.
        if (!signal.aborted && target.status === 'running') void refreshRef.current();
      })();
    },
    [api, pollMs],
  );

  const refresh = useCallback(async () => {
    const { signal } = life.current;
    try {
      const [status, session] = await Promise.all([
        api.status(signal),
        // Who may start runs: a failure here leaves it unknown (Run then learns it from a 403).
        api.session(signal).catch(() => null),
      ]);
      if (signal.aborted) return;
      setLoad({ kind: 'ready', status });
      if (session) setCanRun(hasPermission(session.admin, 'tests:run'));
      const shown = status.current ?? status.last;
      // A run not followed yet (the one going on, or the last) is read from its first line.
      if (shown && shown.id !== follower.current?.id) follow(shown);
    } catch (error) {
      if (!signal.aborted && !isAbortError(error)) setLoad(loadFailure(error));
    }
  }, [api, follow]);
  useEffect(() => {
    refreshRef.current = refresh;
  }, [refresh]);

  useEffect(() => {
    const controller = new AbortController();
    life.current = controller;
    follower.current = null;
    void refresh();
    return () => controller.abort();
  }, [refresh]);

  const retry = useCallback(() => {
    setLoad({ kind: 'loading' });
    void refresh();
  }, [refresh]);

  /** An action's failure: 401 ends the console state, the rest is said beside the buttons. */
  const actionFailed = useCallback(
    (error: unknown) => {
      if (life.current.signal.aborted) return;
      if (isApiError(error, 401)) {
        setLoad({ kind: 'signed-out' });
        return;
      }
      if (isApiError(error, 403) && error.code === ErrorCode.PERMISSION_DENIED) setCanRun(false);
      setNotice(messageOf(error, 'The server did not answer.'));
      // 409 (another run started) or 403 TEST_RUNNER_UNAVAILABLE (turned off): show what is now.
      if (isApiError(error, 409) || isApiError(error, 403)) void refresh();
    },
    [refresh],
  );

  const start = useCallback(
    async (suite: ServerTestSuiteId) => {
      setBusy('starting');
      setNotice(null);
      try {
        const started = await api.start(suite);
        if (!life.current.signal.aborted) follow(started);
      } catch (error) {
        actionFailed(error);
      } finally {
        if (!life.current.signal.aborted) setBusy(null);
      }
    },
    [api, follow, actionFailed],
  );

  const stop = useCallback(async () => {
    const id = follower.current?.id;
    if (!id) return;
    setBusy('stopping');
    setNotice(null);
    try {
      const stopped = await api.stop(id);
      // The follower reads on until the run says it ended and its last lines are in.
      // (An answer still saying running never replaces one the follower already saw end.)
      setRun((prev) => (prev?.id === id && prev.status === 'running' ? stopped : prev));
    } catch (error) {
      actionFailed(error);
    } finally {
      if (!life.current.signal.aborted) setBusy(null);
    }
  }, [api, actionFailed]);

  return { load, canRun, run, lines, busy, notice, readError, retry, start, stop };
}
