import { useCallback, useEffect, useEffectEvent, useMemo, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { createRequiredContext } from './required-context';

/**
 * A deliberately small query cache (the part of TanStack Query this app needs): one entry per
 * key, shared by every component that reads it, refetchable, invalidated by key prefix, and
 * cleared on sign-out so no decrypted or personal data outlives the session.
 */
export type QueryStatus = 'idle' | 'loading' | 'success' | 'error';

export interface QueryState<T> {
  status: QueryStatus;
  data: T | undefined;
  error: unknown;
}

interface Entry {
  state: QueryState<unknown>;
  inFlight: Promise<void> | null;
  listeners: Set<() => void>;
  fn: (() => Promise<unknown>) | null;
  stale: boolean;
}

const IDLE: QueryState<never> = Object.freeze({ status: 'idle', data: undefined, error: undefined });

export class QueryCache {
  private readonly entries = new Map<string, Entry>();

  private entry(key: string): Entry {
    let e = this.entries.get(key);
    if (!e) {
      e = { state: IDLE, inFlight: null, listeners: new Set(), fn: null, stale: true };
      this.entries.set(key, e);
    }
    return e;
  }

  getState<T>(key: string): QueryState<T> {
    return (this.entries.get(key)?.state ?? IDLE) as QueryState<T>;
  }

  subscribe(key: string, listener: () => void): () => void {
    const e = this.entry(key);
    e.listeners.add(listener);
    return () => e.listeners.delete(listener);
  }

  private set(key: string, state: QueryState<unknown>): void {
    const e = this.entry(key);
    e.state = state;
    e.listeners.forEach((l) => l());
  }

  /** Runs the query unless a run is in flight or a fresh answer is held (`force` refetches). */
  fetch<T>(key: string, fn: () => Promise<T>, force = false): Promise<void> {
    const e = this.entry(key);
    e.fn = fn;
    if (e.inFlight) return e.inFlight;
    if (!force && !e.stale && e.state.status === 'success') return Promise.resolve();
    this.set(key, { status: 'loading', data: e.state.data, error: undefined });
    const run = fn().then(
      (data) => {
        e.stale = false;
        this.set(key, { status: 'success', data, error: undefined });
      },
      (error: unknown) => {
        e.stale = true;
        this.set(key, { status: 'error', data: undefined, error });
      },
    );
    e.inFlight = run.finally(() => {
      e.inFlight = null;
    });
    return e.inFlight;
  }

  /** Marks every key starting with `prefix` stale and refetches the ones being watched. */
  invalidate(prefix: string): void {
    for (const [key, e] of this.entries) {
      if (!key.startsWith(prefix)) continue;
      e.stale = true;
      if (e.listeners.size > 0 && e.fn) void this.fetch(key, e.fn, true);
    }
  }

  /** Forgets everything (sign-out). */
  clear(): void {
    for (const [key, e] of this.entries) {
      e.stale = true;
      e.fn = null;
      this.set(key, IDLE);
    }
  }
}

const QueryCacheContext = createRequiredContext<QueryCache>('useQueryCache needs a QueryCacheProvider');

export function QueryCacheProvider({ cache, children }: { cache: QueryCache; children: ReactNode }) {
  return <QueryCacheContext.Provider value={cache}>{children}</QueryCacheContext.Provider>;
}

export const useQueryCache = QueryCacheContext.use;

export interface UseQueryOptions<T> {
  queryKey: string;
  queryFn: () => Promise<T>;
  enabled?: boolean;
}

export function useQuery<T>({
  queryKey,
  queryFn,
  enabled = true,
}: UseQueryOptions<T>): QueryState<T> & { refetch: () => Promise<void> } {
  const cache = useQueryCache();
  const subscribe = useCallback((l: () => void) => cache.subscribe(queryKey, l), [cache, queryKey]);
  const getSnapshot = useCallback(() => cache.getState<T>(queryKey), [cache, queryKey]);
  const state = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  // queryFn is recreated on each render; the key identifies the query.
  const run = useEffectEvent(() => cache.fetch(queryKey, queryFn));
  useEffect(() => {
    if (enabled) void run();
  }, [cache, queryKey, enabled]);
  const refetch = useCallback(() => cache.fetch(queryKey, queryFn, true), [cache, queryKey, queryFn]);
  return useMemo(() => ({ ...state, refetch }), [state, refetch]);
}
