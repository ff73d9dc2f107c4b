/** Lockout arithmetic (pure; the counters themselves live in Redis). */

/** Seconds to tell the client, rounded up and never below 1 while a lock holds (the rate limiter's rounding). */
export { retryAfterSeconds } from '@vault/server-kit';

/**
 * How long an account stays locked: the longer of the Redis lock (automatic lockouts) and
 * the `locked_until` column (survives a Redis restart; later also set by an admin lock).
 */
export function lockRemainingMs(redisRemainingMs: number, lockedUntil: Date | null, nowMs: number): number {
  const fromRedis = redisRemainingMs > 0 ? redisRemainingMs : 0;
  const fromDb = lockedUntil ? lockedUntil.getTime() - nowMs : 0;
  return Math.max(fromRedis, fromDb, 0);
}

/** Failures are forgotten a day after the last one, so "consecutive" does not span months. */
export const FAILURE_MEMORY_SECONDS = 24 * 3600;
