/**
 * A running percent is shown at most this often per transfer (a change of stage shows at once).
 * Every update renders the screen and makes the browser draw a frame, on the same two cores that
 * seal, open and move the file: bench/files.bench.mjs measured a 100 MiB upload's frames (a
 * transition on the bar and a spinner beside it) at 0.22-0.27 core-seconds of compositor and
 * 0.16-0.18 of the page's main thread, against 0.08-0.10 and 0.06-0.08 at this interval.
 */
export const PROGRESS_INTERVAL_MS = 250;

interface Shown<T> {
  at: number;
  value: T;
  next?: T;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Shows each key's latest value at most once per `intervalMs`: a value `urgent` says must not wait
 * (a new stage, the end) shows at once; any other waits for the interval, only the latest kept.
 */
export class ProgressThrottle<T> {
  private readonly keys = new Map<string, Shown<T>>();

  constructor(
    private readonly show: (key: string, value: T) => void,
    private readonly urgent: (shown: T, next: T) => boolean,
    private readonly intervalMs: number = PROGRESS_INTERVAL_MS,
  ) {}

  push(key: string, value: T): void {
    const shown = this.keys.get(key);
    const wait = shown && !this.urgent(shown.value, value) ? shown.at + this.intervalMs - Date.now() : 0;
    if (!shown || wait <= 0) {
      this.showNow(key, value);
      return;
    }
    shown.next = value;
    shown.timer ??= setTimeout(() => this.showNow(key, shown.next as T), wait);
  }

  /** `value` was just shown by other means: the key's interval starts now, a waiting value is dropped. */
  mark(key: string, value: T): void {
    clearTimeout(this.keys.get(key)?.timer);
    this.keys.set(key, { at: Date.now(), value });
  }

  /** The key's transfer ended: a waiting value is dropped and the next one shows at once. */
  forget(key: string): void {
    clearTimeout(this.keys.get(key)?.timer);
    this.keys.delete(key);
  }

  /** Drops every waiting value (the screen is going away). */
  dispose(): void {
    for (const shown of this.keys.values()) clearTimeout(shown.timer);
    this.keys.clear();
  }

  private showNow(key: string, value: T): void {
    this.mark(key, value);
    this.show(key, value);
  }
}
