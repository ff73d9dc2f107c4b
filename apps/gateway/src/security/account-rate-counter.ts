import { rateLimitAnswer, type RateLimitAnswer, type RateLimitRule } from '@vault/server-kit';

/** Counts `cost` hits on `key` in Redis (server-kit's RedisRateLimiter.hit). */
export type SendHits = (key: string, rule: RateLimitRule, cost: number) => Promise<RateLimitAnswer>;

export interface AccountRateCounterOptions {
  /** false: nothing is decided or kept here (every hit is counted in Redis). */
  enabled: boolean;
  send: SendHits;
  /** Hits decided here are sent to Redis in one batch per key this often. */
  flushMs: number;
  /** Decided here only while more than this share of the limit is left; the rest one by one in Redis. */
  headroom: number;
  /** A batch failed: Redis may be down (the caller stops vouching for sessions). */
  onSendFailure?: (error: unknown) => void;
  now?: () => number;
}

interface Window {
  rule: RateLimitRule;
  /** The count Redis last answered for this window. */
  known: number;
  /** Hits allowed here and not yet sent. */
  pending: number;
  /** Hits sent and not yet answered. */
  inflight: number;
  /** When the window closes, by this process's clock. */
  resetAt: number;
}

/** Windows kept past their close this long before they are swept (a late answer may still come). */
const SWEEP_EVERY_MS = 10_000;

/**
 * The signed-in `api` bucket counted in the gateway, so that a request far from its account's
 * limit does not wait for Redis (docs/api.md "Rate limits"). Redis's fixed window stays the
 * truth: the first hit of a window is counted there (and learns the count and when it closes),
 * hits decided here go to Redis in one INCRBY per key every `flushMs`, and once no more than
 * `headroom` of the limit is left every hit is counted in Redis again, one by one. A refusal needs
 * no Redis: the count never falls within a window.
 *
 * One gateway: exactly `limit` hits pass per window (what is in flight is counted). Several: an
 * account may pass its limit by what other replicas allowed it in their last `flushMs` while it
 * was more than `headroom` below the limit.
 */
export class AccountRateCounter {
  private readonly windows = new Map<string, Window>();
  private readonly dirty = new Set<string>();
  private readonly now: () => number;
  private timer?: NodeJS.Timeout;
  private lastSweep = 0;
  private readonly sending = new Set<Promise<void>>();

  constructor(private readonly options: AccountRateCounterOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * This hit, decided without Redis: allowed (and counted for the next batch) or refused. undefined
   * when Redis must count it: no window known, the window over, or the limit near.
   */
  local(key: string, rule: RateLimitRule): RateLimitAnswer | undefined {
    // Turned off, settle() learns no window: every hit comes back undefined here.
    const window = this.windows.get(key);
    if (!window || window.rule.limit !== rule.limit) return undefined;
    const now = this.now();
    if (now >= window.resetAt) {
      // The window closed: hits not yet sent belonged to it and count for nothing now.
      if (window.inflight === 0) this.windows.delete(key);
      else window.pending = 0;
      return undefined;
    }
    const count = window.known + window.inflight + window.pending;
    if (count >= rule.limit) return rateLimitAnswer(count + 1, rule.limit, window.resetAt - now, false);
    if (rule.limit - count <= Math.ceil(rule.limit * this.options.headroom)) return undefined;
    window.pending += 1;
    this.dirty.add(key);
    this.schedule();
    return rateLimitAnswer(count + 1, rule.limit, window.resetAt - now, true);
  }

  /** The cost of a hit counted in Redis now: itself and the hits waiting for the next batch. */
  take(key: string): number {
    const window = this.windows.get(key);
    return window ? drain(window, 1) : 1;
  }

  /**
   * What Redis answered for a hit of `cost` from take(): its count (an answer), nothing counted
   * (null: the hits taken wait for the next batch), or a failure (undefined: the window is
   * forgotten, so the next hit asks Redis).
   */
  settle(key: string, rule: RateLimitRule, cost: number, answer: RateLimitAnswer | null | undefined): void {
    if (!this.options.enabled) return;
    const window = this.windows.get(key);
    if (window) window.inflight = Math.max(0, window.inflight - cost);
    if (answer === undefined) {
      this.windows.delete(key);
      return;
    }
    if (answer === null) {
      if (window && cost > 1) {
        window.pending += cost - 1;
        this.dirty.add(key);
        this.schedule();
      }
      return;
    }
    this.learn(key, rule, answer, window);
  }

  /** Sends every waiting batch now and waits for the answers (at shutdown). */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.sendBatches();
    await Promise.all([...this.sending]);
  }

  get size(): number {
    return this.windows.size;
  }

  private learn(key: string, rule: RateLimitRule, answer: RateLimitAnswer, window: Window | undefined): void {
    const resetAt = this.now() + answer.resetMs;
    // Answers come in the order Redis counted them (one connection): a later one holds the earlier.
    if (window && resetAt < window.resetAt + rule.windowMs / 2) {
      window.known = Math.max(window.known, answer.count);
      window.resetAt = resetAt;
      window.rule = rule;
      return;
    }
    this.windows.set(key, {
      rule,
      known: answer.count,
      pending: window?.pending ?? 0,
      inflight: window?.inflight ?? 0,
      resetAt,
    });
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.sendBatches();
    }, this.options.flushMs);
    this.timer.unref();
  }

  private sendBatches(): void {
    for (const key of this.dirty) {
      const window = this.windows.get(key);
      if (!window || window.pending === 0) continue;
      const cost = drain(window, 0);
      const rule = window.rule;
      const sent = this.options.send(key, rule, cost).then(
        (answer) => this.settle(key, rule, cost, answer),
        (error: unknown) => {
          this.settle(key, rule, cost, undefined);
          this.options.onSendFailure?.(error);
        },
      );
      this.sending.add(sent);
      void sent.finally(() => this.sending.delete(sent));
    }
    this.dirty.clear();
    this.sweep();
  }

  /** Drops windows that closed a while ago with nothing waiting (the map stays the size of the active accounts). */
  private sweep(): void {
    const now = this.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) {
      if (now >= window.resetAt && window.pending === 0 && window.inflight === 0) this.windows.delete(key);
    }
  }
}

/** Moves the window's waiting hits, and `extra` more, to in flight: the cost of one Redis hit. */
function drain(window: Window, extra: number): number {
  const cost = window.pending + extra;
  window.pending = 0;
  window.inflight += cost;
  return cost;
}
