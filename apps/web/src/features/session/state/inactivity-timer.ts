/**
 * Spec sections 4 and 9: a warning 60 seconds before a 10-minute inactivity timeout; activity
 * resets the timer, at most once per second; 'Stay Logged In' resets it and clears the warning;
 * at the timeout the session ends. Pure timing logic: the hook wires it to DOM events.
 *
 * While the warning is showing, passive activity (a mouse move towards the buttons) does not
 * dismiss it: the person answers the dialog. Activity reported by another tab does, because the
 * person is demonstrably using the app there.
 */
export interface InactivityTimerOptions {
  timeoutMs: number;
  warningMs: number;
  /** Spec: "activity throttle 1 second". */
  throttleMs?: number;
  now?: () => number;
  /** The warning appears; `remainingMs` until the timeout. */
  onWarning(remainingMs: number): void;
  /** Every second while the warning shows. */
  onTick(remainingMs: number): void;
  /** The warning went away without a timeout (Stay Logged In, activity in another tab). */
  onWarningCleared(): void;
  onTimeout(): void;
}

export const ACTIVITY_THROTTLE_MS = 1000;

export class InactivityTimer {
  private warningTimer: ReturnType<typeof setTimeout> | undefined;
  private timeoutTimer: ReturnType<typeof setTimeout> | undefined;
  private tickTimer: ReturnType<typeof setInterval> | undefined;
  private deadline = 0;
  private lastReset = Number.NEGATIVE_INFINITY;
  private warning = false;
  private running = false;

  constructor(private readonly options: InactivityTimerOptions) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  get isWarning(): boolean {
    return this.warning;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Milliseconds until the timeout. */
  remainingMs(): number {
    return Math.max(0, this.deadline - this.now());
  }

  start(): void {
    this.running = true;
    this.schedule(this.now());
  }

  stop(): void {
    this.running = false;
    this.clearTimers();
    this.warning = false;
  }

  /**
   * Activity on this page. Resets the countdown unless one was reset less than a second ago or
   * the warning is showing. Returns whether it counted (the hook shares counted activity with other tabs).
   */
  activity(): boolean {
    if (!this.running || this.warning) return false;
    const now = this.now();
    if (now - this.lastReset < (this.options.throttleMs ?? ACTIVITY_THROTTLE_MS)) return false;
    this.schedule(now);
    return true;
  }

  /** Activity in another tab at time `at`: counts as activity here, and clears a warning. */
  externalActivity(at: number): void {
    if (!this.running) return;
    const now = this.now();
    const from = Math.min(at, now);
    if (from + this.options.timeoutMs <= this.deadline) return;
    const wasWarning = this.warning;
    this.schedule(from);
    if (wasWarning) this.options.onWarningCleared();
  }

  /** 'Stay Logged In': resets the timer and clears the warning. */
  stayLoggedIn(): void {
    if (!this.running) return;
    const wasWarning = this.warning;
    this.schedule(this.now());
    if (wasWarning) this.options.onWarningCleared();
  }

  private clearTimers(): void {
    clearTimeout(this.warningTimer);
    clearTimeout(this.timeoutTimer);
    clearInterval(this.tickTimer);
    this.warningTimer = this.timeoutTimer = this.tickTimer = undefined;
  }

  private schedule(from: number): void {
    this.clearTimers();
    this.warning = false;
    this.lastReset = from;
    this.deadline = from + this.options.timeoutMs;
    const untilTimeout = Math.max(0, this.deadline - this.now());
    const untilWarning = Math.max(0, untilTimeout - this.options.warningMs);
    this.warningTimer = setTimeout(() => this.showWarning(), untilWarning);
    this.timeoutTimer = setTimeout(() => this.fire(), untilTimeout);
  }

  private showWarning(): void {
    if (!this.running || this.warning) return;
    this.warning = true;
    this.options.onWarning(this.remainingMs());
    this.tickTimer = setInterval(() => {
      const left = this.remainingMs();
      if (left > 0) this.options.onTick(left);
    }, 1000);
  }

  private fire(): void {
    if (!this.running) return;
    this.stop();
    this.options.onTimeout();
  }
}
