import { TEST_RUNNER_LIMITS } from '@vault/contracts';

/** Writes a batch of lines (and the count of lines dropped since the last batch) in order. */
export type AppendLines = (lines: readonly string[], dropped: number) => Promise<void>;

/**
 * A run's output on its way to Redis: lines are batched (every `flush`, or at once past
 * `batchLines`), written one batch after the other, and only outputLinesMax are kept; the rest is
 * counted as dropped.
 */
export class RunOutputBuffer {
  private pending: string[] = [];
  private kept = 0;
  private dropped = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly append: AppendLines,
    private readonly onError: (error: unknown) => void,
    private readonly batchLines = 200,
  ) {}

  add(line: string): void {
    if (this.kept >= TEST_RUNNER_LIMITS.outputLinesMax) {
      this.dropped += 1;
      return;
    }
    this.kept += 1;
    this.pending.push(line);
    if (this.pending.length >= this.batchLines) this.flush();
  }

  flush(): void {
    if (this.pending.length === 0 && this.dropped === 0) return;
    const lines = this.pending;
    const dropped = this.dropped;
    this.pending = [];
    this.dropped = 0;
    this.writing = this.writing.then(() => this.append(lines, dropped)).catch(this.onError);
  }

  /** Writes what is left and waits for every batch. */
  async drain(): Promise<void> {
    this.flush();
    await this.writing;
  }
}
