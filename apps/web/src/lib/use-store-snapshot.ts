import { useSyncExternalStore } from 'react';

/** What a store offers useSyncExternalStore: its current snapshot and change notifications. */
export interface SnapshotSource<S> {
  getSnapshot: () => S;
  subscribe: (listener: () => void) => () => void;
}

const noSubscription = () => () => undefined;

/** The store's current snapshot, re-rendering on every change; `empty()` while there is no store (the vault locked). */
export function useStoreSnapshot<S>(store: SnapshotSource<S> | null, empty: () => S): S {
  return useSyncExternalStore(
    store ? store.subscribe : noSubscription,
    store ? store.getSnapshot : empty,
    store ? store.getSnapshot : empty,
  );
}
