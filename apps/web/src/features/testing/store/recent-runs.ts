import { withIndexedDbStore, type IndexedDbStore } from '../../../lib/indexed-db';
import type { SuiteRun } from '../model/suite';

/**
 * Recent Test Results: the latest runs, kept on this device only (IndexedDB 'vault-testing'), so
 * they survive a reload. A run holds only what the checks reported (statuses, timings, one-line
 * details): never a key, a note or a token.
 */
export interface RecentRunsStore {
  /** Newest first, at most RECENT_RUNS_LIMIT. */
  list(): Promise<SuiteRun[]>;
  /** Adds a run and drops the oldest beyond the limit; resolves with the new list. */
  add(run: SuiteRun): Promise<SuiteRun[]>;
  clear(): Promise<void>;
}

export const RECENT_RUNS_LIMIT = 10;
const STORE: IndexedDbStore = { db: 'vault-testing', store: 'recent-runs', options: { autoIncrement: true } };

/** Newest first (by start time), at most the limit. */
export function latestRuns(runs: SuiteRun[]): SuiteRun[] {
  return [...runs].sort((a, b) => b.startedAt.localeCompare(a.startedAt)).slice(0, RECENT_RUNS_LIMIT);
}

/** Without IndexedDB (private modes, tests) nothing is kept, and nothing fails. */
export const indexedDbRecentRuns: RecentRunsStore = {
  async list() {
    try {
      return latestRuns(
        ((await withIndexedDbStore<SuiteRun[]>(STORE, 'readonly', (s) => s.getAll())) ?? []) as SuiteRun[],
      );
    } catch {
      return [];
    }
  },
  async add(run) {
    try {
      // Keys grow with each add: the oldest beyond the limit are the lowest keys.
      await withIndexedDbStore(STORE, 'readwrite', (s) => {
        s.add(run);
        const keys = s.getAllKeys();
        keys.onsuccess = () => {
          const extra = keys.result.length - RECENT_RUNS_LIMIT;
          for (const key of keys.result.slice(0, Math.max(0, extra))) s.delete(key);
        };
      });
    } catch {
      // A full or blocked database loses the history, never the run on screen.
    }
    return this.list();
  },
  async clear() {
    await withIndexedDbStore(STORE, 'readwrite', (s) => s.clear()).catch(() => undefined);
  },
};

/** Recent runs in memory, for tests and for browsers without IndexedDB. */
export function memoryRecentRuns(initial: SuiteRun[] = []): RecentRunsStore {
  let runs = latestRuns(initial);
  return {
    list: async () => runs,
    add: async (run) => (runs = latestRuns([run, ...runs])),
    clear: async () => void (runs = []),
  };
}
