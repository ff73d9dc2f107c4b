import { Inject, Injectable } from '@nestjs/common';
import { RedisRateLimiter, redisKeys, type RateLimitAnswer, type RateLimitRule } from '@vault/server-kit';
import type Redis from 'ioredis';
import type { Result } from 'ioredis';
import { AUTH_REDIS } from './connections';

/**
 * Lockout counters and per-IP sign-in throttles (server-kit's RedisRateLimiter) in Redis. A subject is `u:{userId}` for an
 * account, or an HMAC of an unknown identifier. Keys carry no identifier in clear.
 */
const keys = {
  failures: (subject: string) => `lockout:fail:${subject}`,
  lock: (subject: string) => `lockout:lock:${subject}`,
  ip: (ip: string) => redisKeys.rateLimit('login-ip', ip),
};

/**
 * KEYS: failures, lock. ARGV: threshold, lockMs, memorySeconds.
 * Returns {state, failures, remainingMs}: state 0 = counted, 1 = this failure locked the
 * subject, 2 = it was already locked (a concurrent failure got there first).
 */
const RECORD_FAILURE_LUA = `
local locked = redis.call('PTTL', KEYS[2])
if locked > 0 then return {2, 0, locked} end
local n = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
if n >= tonumber(ARGV[1]) then
  redis.call('SET', KEYS[2], n, 'PX', ARGV[2])
  redis.call('DEL', KEYS[1])
  return {1, n, tonumber(ARGV[2])}
end
return {0, n, 0}
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    authRecordLoginFailure(
      failuresKey: string,
      lockKey: string,
      threshold: number,
      lockMs: number,
      memorySeconds: number,
    ): Result<[number, number, number], Context>;
  }
}

export interface FailureOutcome {
  state: 'counted' | 'locked_now' | 'already_locked';
  failures: number;
  remainingMs: number;
}

@Injectable()
export class LoginAttemptsRepository {
  constructor(
    @Inject(AUTH_REDIS) private readonly redis: Redis,
    private readonly limiter: RedisRateLimiter,
  ) {
    redis.defineCommand('authRecordLoginFailure', { numberOfKeys: 2, lua: RECORD_FAILURE_LUA });
  }

  /** Milliseconds left on the subject's lock, 0 when it is not locked. */
  async lockRemainingMs(subject: string): Promise<number> {
    const ttl = await this.redis.pttl(keys.lock(subject));
    return ttl > 0 ? ttl : 0;
  }

  async recordFailure(
    subject: string,
    threshold: number,
    lockMs: number,
    memorySeconds: number,
  ): Promise<FailureOutcome> {
    const [state, failures, remainingMs] = await this.redis.authRecordLoginFailure(
      keys.failures(subject),
      keys.lock(subject),
      threshold,
      lockMs,
      memorySeconds,
    );
    const named = state === 1 ? 'locked_now' : state === 2 ? 'already_locked' : 'counted';
    return { state: named, failures, remainingMs };
  }

  async clearFailures(subject: string): Promise<void> {
    await this.redis.del(keys.failures(subject));
  }

  /** An administrator's lock: the same key the sign-in checks, for `ms` milliseconds (failures forgotten). */
  async setLock(subject: string, ms: number): Promise<void> {
    await Promise.all([
      this.redis.set(keys.lock(subject), 'admin', 'PX', ms),
      this.redis.del(keys.failures(subject)),
    ]);
  }

  /** Ends a lock early with its failure count (an access reset has proved the owner). */
  async clearLock(subject: string): Promise<void> {
    await this.redis.del(keys.failures(subject), keys.lock(subject));
  }

  /** Failed sign-ins from an IP in the current window; `allowed` while fewer than `maxFailures`. */
  ipFailures(ip: string, maxFailures: number): Promise<RateLimitAnswer> {
    return this.limiter.peek(keys.ip(ip), maxFailures);
  }

  recordIpFailure(ip: string, rule: RateLimitRule): Promise<RateLimitAnswer> {
    return this.limiter.hit(keys.ip(ip), rule);
  }
}
