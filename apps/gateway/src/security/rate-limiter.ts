import { Inject, Injectable } from '@nestjs/common';
import { redisKeys } from '@vault/server-kit';
import type Redis from 'ioredis';
import { REDIS } from '../redis/redis.token';

/**
 * Fixed-window counter: one atomic Lua call per request (INCR, and PEXPIRE when the window
 * opens), so the hot path costs O(1) in Redis whatever the traffic.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

export interface RateLimitVerdict {
  allowed: boolean;
  count: number;
  limit: number;
  /** Seconds until the window resets. */
  retryAfterSeconds: number;
}

type RedisWithHit = Redis & {
  gatewayRateHit(key: string, windowMs: number): Promise<[number, number]>;
};

@Injectable()
export class RateLimiter {
  private readonly redis: RedisWithHit;

  constructor(@Inject(REDIS) redis: Redis) {
    if (!('gatewayRateHit' in redis))
      redis.defineCommand('gatewayRateHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as RedisWithHit;
  }

  /** Counts one hit of `id` in `bucket` and says whether it is within `limit` per window. */
  async hit(bucket: string, id: string, limit: number, windowMs = 60_000): Promise<RateLimitVerdict> {
    const [count, ttlMs] = await this.redis.gatewayRateHit(redisKeys.rateLimit(bucket, id), windowMs);
    return {
      allowed: count <= limit,
      count,
      limit,
      retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)),
    };
  }
}
