import { Inject, Injectable } from '@nestjs/common';
import { redisKeys } from '@vault/server-kit';
import type Redis from 'ioredis';
import type { Result } from 'ioredis';
import { AUTH_REDIS } from './connections';

/**
 * Sessions in Redis. `sess:{sid}` is a hash and is the session: the gateway checks
 * `EXISTS sess:{sid}` on every call, so a session lives exactly as long as that key (its
 * expiry is the session's absolute end). The hash also holds the refresh family's state:
 * the SHA-256 of the current token, of the previous one and when it was rotated.
 * `sess-rot:{sid}` is a sorted set of every token the session rotated out (the first 128 bits
 * of each SHA-256, scored by rotation time, the newest ROTATED_KEEP kept, expiring with the
 * session): only a token found there is a reuse (RFC 9700 §4.14); any other token is invalid
 * and changes nothing, so a guessed token can neither end a session nor tell whether it lives.
 * `user-sess:{userId}` is an index of a user's session ids, pruned lazily. `sess-all` is a sorted
 * set of every session id scored by its expiresAt (the admin console's list and count: live
 * sessions are ZCOUNT (now, +inf], O(log N)); every path that deletes a session removes it there
 * too, and all-sessions.repository.ts prunes what a lost write left behind.
 */

export interface SessionRecord {
  id: string;
  userId: string;
  /** Epoch milliseconds. */
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  ip: string;
  userAgent: string;
}

export type RotateOutcome =
  | { kind: 'missing' }
  | { kind: 'unknown' }
  | { kind: 'rotated' | 'grace' | 'reuse'; userId: string; expiresAt: number };

/**
 * Rotated-out tokens remembered per session: a 15-minute access token refreshed around the
 * clock for the 30-day session life is 2,880 rotations. Past this many the oldest are forgotten
 * (then answered as invalid rather than as reuse). About 100 bytes each in Redis.
 */
export const ROTATED_KEEP = 4096;
/** Hex characters of a token's SHA-256 kept in `sess-rot`: 128 bits. */
const ROTATED_HASH_CHARS = 32;

/** The global index of sessions (see above); under the deployment's key prefix like the rest. */
export const ALL_SESSIONS_KEY = 'sess-all';

const PUBLIC_FIELDS = ['userId', 'createdAt', 'lastSeenAt', 'expiresAt', 'ip', 'userAgent'] as const;

/** KEYS: sess, index, sess-all. ARGV: sid, now, expiresAt, then field/value pairs. */
const CREATE_LUA = `
local fields = {}
for i = 4, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
local ttl = redis.call('PTTL', KEYS[2])
local wanted = tonumber(ARGV[3]) - tonumber(ARGV[2])
if ttl < wanted then redis.call('PEXPIREAT', KEYS[2], ARGV[3]) end
return 1
`;

/**
 * Atomic refresh (compare, rotate, remember the previous hash and when).
 * KEYS: sess, sess-rot, sess-all. ARGV: presentedHash, newHash, now, graceMs, ip, keep, hashChars, sid.
 * Returns {outcome, userId, expiresAt}. The current token rotates (and joins sess-rot); the
 * previous one inside the grace window gets an answer without rotating; a token found in
 * sess-rot otherwise is reuse and deletes the session; any other token is 'unknown' and
 * changes nothing.
 */
const ROTATE_LUA = `
local s = redis.call('HMGET', KEYS[1], 'userId', 'refreshHash', 'prevRefreshHash', 'rotatedAt', 'expiresAt')
if not s[1] then return {'missing'} end
local now = tonumber(ARGV[3])
if tonumber(s[5]) <= now then
  redis.call('DEL', KEYS[1], KEYS[2])
  redis.call('ZREM', KEYS[3], ARGV[8])
  return {'missing'}
end
local short = string.sub(ARGV[1], 1, tonumber(ARGV[7]))
if s[2] == ARGV[1] then
  redis.call('HSET', KEYS[1], 'refreshHash', ARGV[2], 'prevRefreshHash', ARGV[1], 'rotatedAt', ARGV[3],
    'lastSeenAt', ARGV[3], 'ip', ARGV[5])
  redis.call('ZADD', KEYS[2], now, short)
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(tonumber(ARGV[6]) + 1))
  redis.call('PEXPIREAT', KEYS[2], s[5])
  return {'rotated', s[1], s[5]}
end
if s[3] and s[3] == ARGV[1] and now - tonumber(s[4]) <= tonumber(ARGV[4]) then
  redis.call('HSET', KEYS[1], 'lastSeenAt', ARGV[3], 'ip', ARGV[5])
  return {'grace', s[1], s[5]}
end
if redis.call('ZSCORE', KEYS[2], short) then
  redis.call('DEL', KEYS[1], KEYS[2])
  redis.call('ZREM', KEYS[3], ARGV[8])
  return {'reuse', s[1], s[5]}
end
return {'unknown'}
`;

/** KEYS: sess, index, sess-rot, sess-all. ARGV: userId, sid. Deletes only the owner's session; 1 when deleted. */
const REVOKE_OWNED_LUA = `
if redis.call('HGET', KEYS[1], 'userId') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[3])
redis.call('SREM', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[4], ARGV[2])
return 1
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    authSessionCreate(
      sessKey: string,
      indexKey: string,
      allKey: string,
      ...args: (string | number)[]
    ): Result<number, Context>;
    authSessionRotate(
      sessKey: string,
      rotatedKey: string,
      allKey: string,
      ...args: (string | number)[]
    ): Result<string[], Context>;
    authSessionRevokeOwned(
      sessKey: string,
      indexKey: string,
      rotatedKey: string,
      allKey: string,
      userId: string,
      sid: string,
    ): Result<number, Context>;
  }
}

@Injectable()
export class SessionsRepository {
  constructor(@Inject(AUTH_REDIS) private readonly redis: Redis) {
    redis.defineCommand('authSessionCreate', { numberOfKeys: 3, lua: CREATE_LUA });
    redis.defineCommand('authSessionRotate', { numberOfKeys: 3, lua: ROTATE_LUA });
    redis.defineCommand('authSessionRevokeOwned', { numberOfKeys: 4, lua: REVOKE_OWNED_LUA });
  }

  async create(session: SessionRecord, refreshHash: string, now: number): Promise<void> {
    const fields = { ...sessionHashFields(session), refreshHash };
    await this.redis.authSessionCreate(
      redisKeys.session(session.id),
      redisKeys.userSessions(session.userId),
      ALL_SESSIONS_KEY,
      session.id,
      now,
      session.expiresAt,
      ...Object.entries(fields).flat(),
    );
  }

  async get(sessionId: string): Promise<SessionRecord | null> {
    const values = await this.redis.hmget(redisKeys.session(sessionId), ...PUBLIC_FIELDS);
    return toRecord(sessionId, values);
  }

  async exists(sessionId: string): Promise<boolean> {
    return (await this.redis.exists(redisKeys.session(sessionId))) === 1;
  }

  /** The stored current and previous refresh hashes (for logout's token check). */
  async refreshHashes(sessionId: string): Promise<{ userId: string; hashes: string[] } | null> {
    const [userId, current, previous] = await this.redis.hmget(
      redisKeys.session(sessionId),
      'userId',
      'refreshHash',
      'prevRefreshHash',
    );
    if (!userId) return null;
    return { userId, hashes: [current, previous].filter((h): h is string => !!h) };
  }

  async rotate(
    sessionId: string,
    presentedHash: string,
    newHash: string,
    now: number,
    graceMs: number,
    ip: string,
  ): Promise<RotateOutcome> {
    const [kind, userId, expiresAt] = await this.redis.authSessionRotate(
      redisKeys.session(sessionId),
      redisKeys.sessionRotated(sessionId),
      ALL_SESSIONS_KEY,
      presentedHash,
      newHash,
      now,
      graceMs,
      ip,
      ROTATED_KEEP,
      ROTATED_HASH_CHARS,
      sessionId,
    );
    if ((kind === 'rotated' || kind === 'grace' || kind === 'reuse') && userId && expiresAt) {
      return { kind, userId, expiresAt: Number(expiresAt) };
    }
    return kind === 'unknown' ? { kind: 'unknown' } : { kind: 'missing' };
  }

  /** Deletes a session that belongs to `userId`; false when it does not exist or is someone else's. */
  async revokeOwned(userId: string, sessionId: string): Promise<boolean> {
    const deleted = await this.redis.authSessionRevokeOwned(
      redisKeys.session(sessionId),
      redisKeys.userSessions(userId),
      redisKeys.sessionRotated(sessionId),
      ALL_SESSIONS_KEY,
      userId,
      sessionId,
    );
    return deleted === 1;
  }

  /** Drops a session id from a user's index (after the session key is already gone). */
  async forget(userId: string, sessionId: string): Promise<void> {
    await Promise.all([
      this.redis.srem(redisKeys.userSessions(userId), sessionId),
      this.redis.zrem(ALL_SESSIONS_KEY, sessionId),
    ]);
  }

  /** The user's live sessions; index entries whose session is gone are pruned. */
  async listForUser(userId: string): Promise<SessionRecord[]> {
    const ids = await this.redis.smembers(redisKeys.userSessions(userId));
    const rows = await Promise.all(
      ids.map(async (id) => toRecord(id, await this.redis.hmget(redisKeys.session(id), ...PUBLIC_FIELDS))),
    );
    const stale = ids.filter((_, i) => rows[i]?.userId !== userId);
    if (stale.length > 0) await this.redis.srem(redisKeys.userSessions(userId), ...stale);
    return rows.filter((r): r is SessionRecord => r !== null && r.userId === userId);
  }

  /** Deletes every session of a user except `keepSessionId`; returns how many were deleted. */
  async revokeAllForUser(userId: string, keepSessionId?: string): Promise<number> {
    const ids = (await this.redis.smembers(redisKeys.userSessions(userId))).filter(
      (id) => id !== keepSessionId,
    );
    if (ids.length === 0) return 0;
    // Sent together: one round trip, not four.
    const [deleted] = await Promise.all([
      this.redis.del(...ids.map((id) => redisKeys.session(id))),
      this.redis.del(...ids.map((id) => redisKeys.sessionRotated(id))),
      this.redis.srem(redisKeys.userSessions(userId), ...ids),
      this.redis.zrem(ALL_SESSIONS_KEY, ...ids),
    ]);
    return deleted;
  }
}

/** The hash fields a vault session and an admin session both store (admin-sessions.repository.ts). */
export function sessionHashFields(
  session: Omit<SessionRecord, 'id'>,
): Record<keyof Omit<SessionRecord, 'id'>, string> {
  return {
    userId: session.userId,
    createdAt: String(session.createdAt),
    lastSeenAt: String(session.lastSeenAt),
    expiresAt: String(session.expiresAt),
    ip: session.ip,
    userAgent: session.userAgent,
  };
}

function toRecord(id: string, values: (string | null)[]): SessionRecord | null {
  const [userId, createdAt, lastSeenAt, expiresAt, ip, userAgent] = values;
  if (!userId || !createdAt || !expiresAt) return null;
  return {
    id,
    userId,
    createdAt: Number(createdAt),
    lastSeenAt: Number(lastSeenAt ?? createdAt),
    expiresAt: Number(expiresAt),
    ip: ip ?? '',
    userAgent: userAgent ?? '',
  };
}
