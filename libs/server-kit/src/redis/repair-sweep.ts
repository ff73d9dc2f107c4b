/** Why a repair sweep runs: also the words of its log lines. */
export const REPAIR_REASON = {
  start: 'start',
  reconnect: 'Redis is back',
  periodic: 'periodic check',
} as const;
export type RepairReason = (typeof REPAIR_REASON)[keyof typeof REPAIR_REASON];

export interface RepairSweepOptions {
  /** The client whose every 'ready' after the first means Redis is back (maybe empty). */
  redis: {
    on(event: 'ready', listener: () => void): unknown;
    off(event: 'ready', listener: () => void): unknown;
  };
  logger: { warn(message: string): void };
  /** What the sweep does, for the log line of a failure: `queue pending scans again`. */
  what: string;
  /** Puts back what Redis may have lost; safe to run any number of times. */
  sweep: (reason: RepairReason) => Promise<unknown>;
  /** Also on each reconnection, beside the sweep (its own failures are its own to log). */
  onReconnect?: () => void;
  /** Also this often (a reason of its own: `periodic check`); unset: never. */
  everyMs?: number;
}

/**
 * Repairs what a Redis that came back empty lost (queued jobs, job schedules): a sweep at start,
 * each time the client's connection comes back, and optionally every `everyMs`. One sweep at a
 * time (an occasion that finds one running is covered by it); a failed one is logged and the next
 * occasion tries again; stop() waits for the one running. docs/operations.md "Failures and
 * recovery" lists what each service repairs this way.
 */
export class RepairSweep {
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly onReady = () => {
    this.options.onReconnect?.();
    this.run(REPAIR_REASON.reconnect);
  };

  constructor(private readonly options: RepairSweepOptions) {}

  /** Call once the client is ready (at bootstrap): every later 'ready' is a reconnection. */
  start(): void {
    this.options.redis.on('ready', this.onReady);
    if (this.options.everyMs) {
      this.timer = setInterval(() => this.run(REPAIR_REASON.periodic), this.options.everyMs);
      this.timer.unref();
    }
    this.run(REPAIR_REASON.start);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.options.redis.off('ready', this.onReady);
    await this.running;
  }

  private run(reason: RepairReason): void {
    if (this.running) return;
    this.running = this.options
      .sweep(reason)
      .then(() => undefined)
      .catch((error: unknown) =>
        this.options.logger.warn(
          `Could not ${this.options.what} (${reason}): ${error instanceof Error ? error.message : error}`,
        ),
      )
      .finally(() => (this.running = undefined));
  }
}
