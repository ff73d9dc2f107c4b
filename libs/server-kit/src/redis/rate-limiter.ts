import type Redis from 'ioredis';
import type { Result } from 'ioredis';

/**
 * KEYS: counter. ARGV: windowMs, cost. A fixed window that opens with its first hit: INCRBY, and
 * PEXPIRE when the counter has no expiry yet. Returns {count, remaining ms of the window}.
 */
/** Counts ARGV[2] hits on the key KEYS[n] in a window of ARGV[1] ms; answers {count, ms left}. */
const hitLua = (n: number) => `
local count = redis.call('INCRBY', KEYS[${n}], ARGV[2])
local ttl = redis.call('PTTL', KEYS[${n}])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[${n}], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

const HIT_LUA = hitLua(1);

/** The same hit on KEYS[2], only while KEYS[1] exists (else {-1, 0}, nothing counted). */
const HIT_IF_EXISTS_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1, 0} end
${hitLua(2)}`;

/** KEYS: counter. The count and the window's remaining ms, counting nothing. */
const PEEK_LUA = `
return {tonumber(redis.call('GET', KEYS[1]) or '0'), redis.call('PTTL', KEYS[1])}
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    vaultRateHit(key: string, windowMs: number, cost: number): Result<[number, number], Context>;
    vaultRateHitIfExists(
      required: string,
      key: string,
      windowMs: number,
      cost: number,
    ): Result<[number, number], Context>;
    vaultRatePeek(key: string): Result<[number, number], Context>;
  }
}

export interface RateLimitRule {
  /** Hits allowed in one window. */
  limit: number;
  windowMs: number;
}

export interface RateLimitAnswer {
  /** After `hit`: this hit is within the limit. After `peek`: one more hit would be. */
  allowed: boolean;
  /** Hits counted in the current window. */
  count: number;
  limit: number;
  /** Hits still allowed in the current window. */
  remaining: number;
  /** Milliseconds until the window closes; 0 when none is open. */
  resetMs: number;
  /** Whole seconds to tell a refused caller (Retry-After): `resetMs` rounded up, at least 1. */
  retryAfter: number;
}

/**
 * The one rate-limit primitive of the server (gateway limits, auth's failure and e-mail counters):
 * a fixed-window counter per Redis key, counted and read in one atomic script each, so concurrent
 * hits from any number of replicas are counted exactly. Keys are the caller's (under the client's
 * keyPrefix); the value is a plain integer with the window as its expiry.
 */
export class RedisRateLimiter {
  constructor(private readonly redis: Redis) {
    // Defining them again on a shared client is harmless (the same scripts, by SHA).
    redis.defineCommand('vaultRateHit', { numberOfKeys: 1, lua: HIT_LUA });
    redis.defineCommand('vaultRateHitIfExists', { numberOfKeys: 2, lua: HIT_IF_EXISTS_LUA });
    redis.defineCommand('vaultRatePeek', { numberOfKeys: 1, lua: PEEK_LUA });
  }

  /** Counts `cost` hits on `key` and answers whether they are within the rule's limit. */
  async hit(key: string, rule: RateLimitRule, cost = 1): Promise<RateLimitAnswer> {
    const [count, resetMs] = await this.redis.vaultRateHit(key, windowOf(rule), cost);
    return rateLimitAnswer(count, rule.limit, resetMs, count <= rule.limit);
  }

  /**
   * hit(), in the same round trip as a check that `required` exists (the gateway: a caller's session,
   * then its rate limit): null, and nothing counted, when it does not.
   */
  async hitIfExists(
    required: string,
    key: string,
    rule: RateLimitRule,
    cost = 1,
  ): Promise<RateLimitAnswer | null> {
    const [count, resetMs] = await this.redis.vaultRateHitIfExists(required, key, windowOf(rule), cost);
    return count < 0 ? null : rateLimitAnswer(count, rule.limit, resetMs, count <= rule.limit);
  }

  /** The current window of `key` without counting: `allowed` says whether one more hit would pass. */
  async peek(key: string, limit: number): Promise<RateLimitAnswer> {
    const [count, resetMs] = await this.redis.vaultRatePeek(key);
    return rateLimitAnswer(count, limit, resetMs, count < limit);
  }

  /** Forgets the windows of these keys (a success that clears a failure count). */
  async reset(...keys: string[]): Promise<void> {
    if (keys.length > 0) await this.redis.del(...keys);
  }
}

/** The rule's window as the scripts take it: whole milliseconds, at least 1 (PEXPIRE refuses 0). */
function windowOf(rule: RateLimitRule): number {
  return Math.max(1, Math.ceil(rule.windowMs));
}

/** Seconds to tell a refused caller: `remainingMs` rounded up, never below 1. */
export function retryAfterSeconds(remainingMs: number): number {
  return Math.max(1, Math.ceil(remainingMs / 1000));
}

/** The answer for `count` hits against `limit` in a window with `ttlMs` left. */
export function rateLimitAnswer(
  count: number,
  limit: number,
  ttlMs: number,
  allowed: boolean,
): RateLimitAnswer {
  const resetMs = ttlMs > 0 ? ttlMs : 0;
  return {
    allowed,
    count,
    limit,
    remaining: Math.max(0, limit - count),
    resetMs,
    retryAfter: retryAfterSeconds(resetMs),
  };
}
