import Redis, { type RedisOptions } from 'ioredis';

/** Key names shared by the services that read the same Redis data. */
export const redisKeys = {
  /** Session hash, owned by auth; the gateway checks its existence on every call. */
  session: (sid: string) => `sess:${sid}`,
  userSessions: (userId: string) => `user-sess:${userId}`,
  rateLimit: (bucket: string, id: string) => `rl:${bucket}:${id}`,
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
