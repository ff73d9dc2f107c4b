import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, VaultError } from '@vault/contracts';
import { RedisRateLimiter, redisKeys, type RateLimitAnswer, type RateLimitRule } from '@vault/server-kit';
import type Redis from 'ioredis';
import { REDIS } from '../redis/redis.token';
import { AccountRateCounter } from '../security/account-rate-counter';
import { SessionCache } from './session-cache';

/**
 * Session liveness (docs/architecture.md "Session liveness"): auth owns `sess:{sid}`; the gateway
 * asks whether it still exists. A session seen alive is remembered while Redis's watch on
 * `sess:*` is up (SessionCache), so a revoked session's token is refused as soon as Redis reports
 * the deletion; otherwise one O(1) EXISTS per request, for most routes in the same script as the
 * caller's rate limit. Redis failing: 503.
 */
@Injectable()
export class SessionLiveness {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly limiter: RedisRateLimiter,
    private readonly cache: SessionCache,
    private readonly counter: AccountRateCounter,
  ) {}

  async isLive(sessionId: string): Promise<boolean> {
    if (this.cache.has(sessionId)) return true;
    const mark = this.cache.mark();
    let live: boolean;
    try {
      live = (await this.redis.exists(redisKeys.session(sessionId))) === 1;
    } catch {
      throw new VaultError(ErrorCode.SERVICE_UNAVAILABLE);
    }
    if (live) this.cache.remember(sessionId, mark);
    return live;
  }

  /**
   * isLive() and, only when it is, a hit on the caller's rate limit: the answer, or null for an
   * ended session (nothing counted). A remembered session far from its limit costs no Redis round
   * trip (AccountRateCounter); otherwise both in one script, carrying the hits counted here since.
   */
  async liveAndCounted(sessionId: string, key: string, rule: RateLimitRule): Promise<RateLimitAnswer | null> {
    if (this.cache.has(sessionId)) {
      const local = this.counter.local(key, rule);
      if (local) return local;
    }
    const mark = this.cache.mark();
    const cost = this.counter.take(key);
    let answer: RateLimitAnswer | null;
    try {
      answer = await this.limiter.hitIfExists(redisKeys.session(sessionId), key, rule, cost);
    } catch {
      this.counter.settle(key, rule, cost, undefined);
      throw new VaultError(ErrorCode.SERVICE_UNAVAILABLE);
    }
    this.counter.settle(key, rule, cost, answer);
    if (answer) this.cache.remember(sessionId, mark);
    else this.cache.forget(sessionId);
    return answer;
  }
}
