/** What the cache needs of the watch on `sess:*` (server-kit's KeyInvalidations). */
export interface SessionWatch {
  readonly watching: boolean;
  /** Moves on every invalidation and every change of `watching`. */
  readonly generation: number;
}

export interface SessionCacheOptions {
  /** The full prefix of session keys in Redis (`REDIS_PREFIX` + `sess:`). */
  keyPrefix: string;
  /** An entry is asked about again after this long, whatever the watch says. */
  maxAgeMs: number;
  /** At most this many sessions remembered; the oldest go first. */
  maxEntries: number;
  now?: () => number;
}

/**
 * The sessions the gateway has seen alive in Redis, so that a signed-in request need not ask
 * again (docs/architecture.md "Session liveness"). An entry counts only while the watch on
 * `sess:*` is up: Redis reports every write, deletion and expiry of a session key, and the entry
 * goes at once. When the watch is lost, everything is forgotten and every request asks Redis
 * again until it is back. A read that raced a revocation is not kept: remember() takes the
 * watch's generation noted before the read and drops the answer if anything was invalidated since.
 */
export class SessionCache {
  private readonly live = new Map<string, number>();
  private watch: SessionWatch = { watching: false, generation: 0 };
  private readonly now: () => number;

  constructor(private readonly options: SessionCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Starts trusting entries while this watch is up (without one, the cache keeps nothing). */
  attach(watch: SessionWatch): void {
    this.watch = watch;
  }

  /** True when `sessionId` was seen alive less than maxAgeMs ago and nothing has ended it since. */
  has(sessionId: string): boolean {
    const seen = this.live.get(sessionId);
    if (seen === undefined) return false;
    if (!this.watch.watching || this.now() - seen >= this.options.maxAgeMs) {
      this.live.delete(sessionId);
      return false;
    }
    return true;
  }

  /** To note before reading a session from Redis, for remember(). */
  mark(): number {
    return this.watch.generation;
  }

  /** Redis said `sessionId` exists, in a read begun at `mark`. */
  remember(sessionId: string, mark: number): void {
    if (!this.watch.watching || this.watch.generation !== mark) return;
    this.live.delete(sessionId);
    if (this.live.size >= this.options.maxEntries) {
      const oldest = this.live.keys().next().value;
      if (oldest !== undefined) this.live.delete(oldest);
    }
    this.live.set(sessionId, this.now());
  }

  forget(sessionId: string): void {
    this.live.delete(sessionId);
  }

  /** The watch's report: this key changed (null: anything may have). */
  invalidate(key: string | null): void {
    if (key === null) this.live.clear();
    else if (key.startsWith(this.options.keyPrefix))
      this.live.delete(key.slice(this.options.keyPrefix.length));
  }

  get size(): number {
    return this.live.size;
  }
}
