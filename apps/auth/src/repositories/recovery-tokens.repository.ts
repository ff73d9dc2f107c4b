import { Inject, Injectable } from '@nestjs/common';
import { RedisRateLimiter, redisKeys, type RateLimitAnswer, type RateLimitRule } from '@vault/server-kit';
import type Redis from 'ioredis';
import type { Result } from 'ioredis';
import { AUTH_REDIS } from './connections';

/**
 * Recovery's short-lived state in Redis, every key with its own expiry:
 * - `recovery:code:{userId}`: the pending e-mail code's HMAC and its failed tries (one per account;
 *   a new code replaces the old one);
 * - `recovery:bypass:{sha256(token)}`: the user a bypass token resets, and how it was earned;
 * - `rl:recovery-*:{subject}` and `recovery:fail:{kind}:{subject}`: fixed-window counters
 *   (server-kit's RedisRateLimiter).
 * Nothing here is a secret in clear: codes and tokens are stored as digests only.
 */
export const recoveryKeys = {
  code: (userId: string) => `recovery:code:${userId}`,
  bypass: (tokenHash: string) => `recovery:bypass:${tokenHash}`,
  rate: (bucket: string, subject: string) => redisKeys.rateLimit(`recovery-${bucket}`, subject),
  failures: (kind: string, subject: string) => `recovery:fail:${kind}:${subject}`,
};

/**
 * KEYS: code. ARGV: presentedHash, maxTries.
 * 1 = right (the code is gone: single use); 0 = no live code; -1 = wrong (counted; the
 * maxTries-th wrong try deletes the code, so even the right one is refused afterwards).
 */
const CHECK_CODE_LUA = `
local stored = redis.call('HGET', KEYS[1], 'hash')
if not stored then return 0 end
if stored == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
local tries = redis.call('HINCRBY', KEYS[1], 'tries', 1)
if tries >= tonumber(ARGV[2]) then redis.call('DEL', KEYS[1]) end
return -1
`;

/** KEYS: bypass. Reads and deletes in one step: a token works once, even under a race. */
const CONSUME_BYPASS_LUA = `
local v = redis.call('HMGET', KEYS[1], 'userId', 'method')
if not v[1] then return false end
redis.call('DEL', KEYS[1])
return v
`;

/** KEYS: bypass. ARGV: maxFailures. Counts a wrong second factor; the last one burns the token. */
const BYPASS_FAILURE_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local n = redis.call('HINCRBY', KEYS[1], 'failures', 1)
if n >= tonumber(ARGV[1]) then redis.call('DEL', KEYS[1]) end
return n
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    authRecoveryCheckCode(key: string, presentedHash: string, maxTries: number): Result<number, Context>;
    authRecoveryConsumeBypass(key: string): Result<[string, string] | null, Context>;
    authRecoveryBypassFailure(key: string, maxFailures: number): Result<number, Context>;
  }
}

export type CodeCheck = 'right' | 'wrong' | 'missing';
export type BypassMethod = 'email' | 'key' | 'questions';

export interface BypassGrant {
  userId: string;
  method: BypassMethod;
}

@Injectable()
export class RecoveryTokensRepository {
  constructor(
    @Inject(AUTH_REDIS) private readonly redis: Redis,
    private readonly limiter: RedisRateLimiter,
  ) {
    redis.defineCommand('authRecoveryCheckCode', { numberOfKeys: 1, lua: CHECK_CODE_LUA });
    redis.defineCommand('authRecoveryConsumeBypass', { numberOfKeys: 1, lua: CONSUME_BYPASS_LUA });
    redis.defineCommand('authRecoveryBypassFailure', { numberOfKeys: 1, lua: BYPASS_FAILURE_LUA });
  }

  /** Stores a code's digest for `ttlSeconds`, replacing any earlier code and its tries. */
  async storeCode(userId: string, codeHash: string, ttlSeconds: number): Promise<void> {
    const key = recoveryKeys.code(userId);
    await this.redis.multi().del(key).hset(key, 'hash', codeHash, 'tries', 0).expire(key, ttlSeconds).exec();
  }

  async checkCode(userId: string, presentedHash: string, maxTries: number): Promise<CodeCheck> {
    const outcome = await this.redis.authRecoveryCheckCode(
      recoveryKeys.code(userId),
      presentedHash,
      maxTries,
    );
    return outcome === 1 ? 'right' : outcome === 0 ? 'missing' : 'wrong';
  }

  /** Counts one hit on a rate-limit key (`recoveryKeys.rate` / `failures`). */
  hit(key: string, rule: RateLimitRule): Promise<RateLimitAnswer> {
    return this.limiter.hit(key, rule);
  }

  /** A key's current window, counting nothing: `allowed` while fewer than `limit` hits. */
  peek(key: string, limit: number): Promise<RateLimitAnswer> {
    return this.limiter.peek(key, limit);
  }

  clear(...keys: string[]): Promise<void> {
    return this.limiter.reset(...keys);
  }

  async storeBypass(tokenHash: string, grant: BypassGrant, ttlSeconds: number): Promise<void> {
    const key = recoveryKeys.bypass(tokenHash);
    await this.redis
      .multi()
      .hset(key, 'userId', grant.userId, 'method', grant.method, 'failures', 0)
      .expire(key, ttlSeconds)
      .exec();
  }

  /** The live grant of a token, without using it up. */
  async peekBypass(tokenHash: string): Promise<BypassGrant | null> {
    const [userId, method] = await this.redis.hmget(recoveryKeys.bypass(tokenHash), 'userId', 'method');
    return userId && method ? { userId, method: method as BypassMethod } : null;
  }

  /** Uses a token up; null when it is unknown, expired or already used. */
  async consumeBypass(tokenHash: string): Promise<BypassGrant | null> {
    const v = await this.redis.authRecoveryConsumeBypass(recoveryKeys.bypass(tokenHash));
    return v && v[0] && v[1] ? { userId: v[0], method: v[1] as BypassMethod } : null;
  }

  async recordBypassFailure(tokenHash: string, maxFailures: number): Promise<void> {
    await this.redis.authRecoveryBypassFailure(recoveryKeys.bypass(tokenHash), maxFailures);
  }
}
