import Redis, { type RedisOptions } from 'ioredis';

/** Key names shared by the services that read the same Redis data. */
export const redisKeys = {
  /** Session hash, owned by auth; the gateway checks its existence on every call. */
  session: (sid: string) => `sess:${sid}`,
  userSessions: (userId: string) => `user-sess:${userId}`,
  /** Auth's record of a session's rotated-out refresh tokens (truncated hashes), for reuse detection. */
  sessionRotated: (sid: string) => `sess-rot:${sid}`,
  rateLimit: (bucket: string, id: string) => `rl:${bucket}:${id}`,
  /** Auth's admin-console session, by the SHA-256 (hex) of its cookie's token: never the token itself. */
  adminSession: (tokenHash: string) => `admin-sess:${tokenHash}`,
  /** The token hashes of a user's admin sessions, so a lock, demotion or deletion ends them all. */
  adminSessionsOf: (userId: string) => `admin-sess-of:${userId}`,
} as const;

export function createRedis(url: string, keyPrefix: string, extra: RedisOptions = {}): Redis {
  return new Redis(url, {
    keyPrefix,
    lazyConnect: false,
    maxRetriesPerRequest: 2,
    enableAutoPipelining: true,
    ...extra,
  });
}

/**
 * The BullMQ key prefix of a deployment: its Redis prefix (tests and parallel stacks each have
 * their own) + `bull`. BullMQ refuses ioredis' keyPrefix, so queues take this as `prefix`; every
 * producer and consumer of a queue must use it to meet on the same keys.
 */
export function queuePrefix(redisPrefix: string): string {
  return `${redisPrefix}bull`;
}

/** A Redis connection for BullMQ (no keyPrefix; blocking commands need maxRetriesPerRequest null). */
export function createQueueConnection(url: string, extra: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: false, ...extra });
}
