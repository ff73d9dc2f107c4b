import { describe, expect, it } from 'vitest';
import type { SuiteRun } from '../model/suite';
import { indexedDbRecentRuns, latestRuns, memoryRecentRuns, RECENT_RUNS_LIMIT } from './recent-runs';

const runAt = (minute: number): SuiteRun => ({
  suiteId: 'crypto',
  status: 'passed',
  quick: false,
  startedAt: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
  durationMs: minute,
  checks: [],
  errors: [],
  output: [],
});

describe('recent runs', () => {
  it('keeps the latest ten, newest first', async () => {
    const store = memoryRecentRuns();
    for (let m = 0; m < 13; m += 1) await store.add(runAt(m));
    const list = await store.list();
    expect(list).toHaveLength(RECENT_RUNS_LIMIT);
    expect(list.map((r) => r.durationMs)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
  });

  it('orders by start time whatever the order they were added in', () => {
    expect(latestRuns([runAt(2), runAt(5), runAt(1)]).map((r) => r.durationMs)).toEqual([5, 2, 1]);
  });

  it('clears', async () => {
    const store = memoryRecentRuns([runAt(1)]);
    await store.clear();
    expect(await store.list()).toEqual([]);
  });

  it('keeps nothing, and fails nothing, where the browser has no IndexedDB', async () => {
    expect(typeof indexedDB).toBe('undefined');
    expect(await indexedDbRecentRuns.add(runAt(1))).toEqual([]);
    expect(await indexedDbRecentRuns.list()).toEqual([]);
    await expect(indexedDbRecentRuns.clear()).resolves.toBeUndefined();
  });
});
