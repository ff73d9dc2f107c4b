import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, VaultError } from '@vault/contracts';
import { RedisRateLimiter, redisKeys, type RateLimitAnswer, type RateLimitRule } from '@vault/server-kit';
import type Redis from 'ioredis';
import { REDIS } from '../redis/redis.token';

/**
 * Session liveness (docs/architecture.md "How the parts talk"): auth owns `sess:{sid}`; the
 * gateway only asks whether it still exists, one O(1) EXISTS per authenticated request (for most
 * routes in the same script as the caller's rate limit). A revoked session's token is refused at
 * once, not when it expires.
 */
@Injectable()
export class SessionLiveness {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly limiter: RedisRateLimiter,
  ) {}

  async isLive(sessionId: string): Promise<boolean> {
    try {
      return (await this.redis.exists(redisKeys.session(sessionId))) === 1;
    } catch {
      throw new VaultError(ErrorCode.SERVICE_UNAVAILABLE);
    }
  }

  /**
   * isLive() and, only when it is, a hit on the caller's rate limit, in one round trip (one Redis
   * script): the answer, or null for an ended session (nothing counted).
   */
  async liveAndCounted(sessionId: string, key: string, rule: RateLimitRule): Promise<RateLimitAnswer | null> {
    try {
      return await this.limiter.hitIfExists(redisKeys.session(sessionId), key, rule);
    } catch {
      throw new VaultError(ErrorCode.SERVICE_UNAVAILABLE);
    }
  }
}
