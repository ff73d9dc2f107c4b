import type { SnapshotSource } from './use-store-snapshot';

/**
 * What every store the screens read with useStoreSnapshot shares: the current snapshot, replaced
 * (never changed in place) on every change, and the listeners told about it.
 */
export abstract class SnapshotStore<S> implements SnapshotSource<S> {
  private readonly listeners = new Set<() => void>();

  protected constructor(protected snapshot: S) {}

  getSnapshot = (): S => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Replaces the snapshot and tells every listener. */
  protected emit(snapshot: S): void {
    this.snapshot = snapshot;
    this.listeners.forEach((l) => l());
  }

  /** On dispose: no listener is told anything any more, and the snapshot is back to `empty`. */
  protected reset(empty: S): void {
    this.listeners.clear();
    this.snapshot = empty;
  }
}
