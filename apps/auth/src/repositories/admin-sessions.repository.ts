import { Inject, Injectable } from '@nestjs/common';
import type { Role } from '@vault/contracts';
import { redisKeys } from '@vault/server-kit';
import type Redis from 'ioredis';
import type { Result } from 'ioredis';
import { AUTH_REDIS } from './connections';
import { sessionHashFields } from './sessions.repository';

/**
 * The admin console's sessions in Redis, apart from the vault's (apps/auth/README.md "The admin
 * session"). `admin-sess:{sha256(token)}` is a hash and is the session; its expiry is
 * min(idle end, absolute end) and moves on at every check, so an unused session simply
 * disappears. The token itself is never stored. `admin-sess-of:{userId}` is the set of a user's
 * session hashes, so a lock, a demotion or a deletion can end them all (`endAllFor`).
 */

/**
 * The rights a session grants, as auth last read them from the account: services take an admin's
 * role and permissions from here (server-kit readAdmin), never from the RPC message.
 */
export interface AdminSessionAccess {
  role: Role;
  permissions: string[];
}

/** The hash fields of AdminSessionAccess (permissions as a JSON array). */
function accessFields({ role, permissions }: AdminSessionAccess): string[] {
  return ['role', role, 'permissions', JSON.stringify(permissions)];
}

export interface AdminSessionRecord {
  userId: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** The absolute end: the idle end never goes past it. */
  expiresAt: number;
  lastSeenAt: number;
  ip: string;
  userAgent: string;
}

/** KEYS: session, index. ARGV: tokenHash, ttlMs, indexTtlMs, then field/value pairs. */
const CREATE_LUA = `
local fields = {}
for i = 4, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[2], ARGV[3]) end
return 1
`;

/**
 * The check on every admin call, in one round trip. KEYS: session. ARGV: now, idleMs.
 * A session past its absolute end or unused for idleMs is deleted (Redis' own expiry does the
 * same; this also holds when the clock the caller passes is ahead). Otherwise lastSeenAt moves
 * to now and the expiry to min(now + idle, absolute end). Returns the record's fields and the
 * stored rights (role, permissions JSON), or nil.
 */
const TOUCH_LUA = `
local s = redis.call('HMGET', KEYS[1], 'userId', 'createdAt', 'expiresAt', 'lastSeenAt', 'ip', 'userAgent', 'role', 'permissions')
if not s[1] then return false end
local now = tonumber(ARGV[1])
local expiresAt = tonumber(s[3])
if expiresAt <= now or now - tonumber(s[4]) >= tonumber(ARGV[2]) then
  redis.call('DEL', KEYS[1])
  return false
end
redis.call('HSET', KEYS[1], 'lastSeenAt', ARGV[1])
redis.call('PEXPIRE', KEYS[1], math.min(tonumber(ARGV[2]), expiresAt - now))
return {s[1], s[2], s[3], ARGV[1], s[5], s[6], s[7] or '', s[8] or ''}
`;

/**
 * KEYS: session. ARGV: field/value pairs. Sets them only while the session lives: a session ended
 * meanwhile is not brought back (without its expiry) by the write.
 */
const GRANT_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
`;

/** KEYS: session. Deletes the session; answers its userId (or nil). */
const END_LUA = `
local userId = redis.call('HGET', KEYS[1], 'userId')
redis.call('DEL', KEYS[1])
return userId
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    authAdminSessionCreate(
      sessionKey: string,
      indexKey: string,
      ...args: (string | number)[]
    ): Result<number, Context>;
    authAdminSessionTouch(sessionKey: string, now: number, idleMs: number): Result<string[] | null, Context>;
    authAdminSessionGrant(sessionKey: string, ...fields: string[]): Result<number, Context>;
    authAdminSessionEnd(sessionKey: string): Result<string | null, Context>;
  }
}

@Injectable()
export class AdminSessionsRepository {
  constructor(@Inject(AUTH_REDIS) private readonly redis: Redis) {
    redis.defineCommand('authAdminSessionCreate', { numberOfKeys: 2, lua: CREATE_LUA });
    redis.defineCommand('authAdminSessionTouch', { numberOfKeys: 1, lua: TOUCH_LUA });
    redis.defineCommand('authAdminSessionGrant', { numberOfKeys: 1, lua: GRANT_LUA });
    redis.defineCommand('authAdminSessionEnd', { numberOfKeys: 1, lua: END_LUA });
  }

  /** `ttlMs`: the first idle end (already capped at the absolute end). */
  async create(
    tokenHash: string,
    session: AdminSessionRecord,
    ttlMs: number,
    access: AdminSessionAccess,
  ): Promise<void> {
    const fields = sessionHashFields(session);
    await this.redis.authAdminSessionCreate(
      redisKeys.adminSession(tokenHash),
      redisKeys.adminSessionsOf(session.userId),
      tokenHash,
      ttlMs,
      session.expiresAt - session.createdAt,
      ...Object.entries(fields).flat(),
      ...accessFields(access),
    );
  }

  /** Stores the rights the account holds now in its live session (no-op once the session ended). */
  async grant(tokenHash: string, access: AdminSessionAccess): Promise<void> {
    await this.redis.authAdminSessionGrant(redisKeys.adminSession(tokenHash), ...accessFields(access));
  }

  /**
   * `grant`, skipped when the session already stores exactly these rights (`stored`: touch's
   * `storedAccess`): the check behind every admin call then stays one Redis round trip.
   */
  async grantIfChanged(tokenHash: string, access: AdminSessionAccess, stored: string[]): Promise<void> {
    const fields = accessFields(access);
    if (fields.every((value, i) => value === stored[i])) return;
    await this.redis.authAdminSessionGrant(redisKeys.adminSession(tokenHash), ...fields);
  }

  /**
   * The live session of this hash with its idle end moved on, or null (missing, idle or past its
   * end); `storedAccess` is the rights as stored (role and permissions JSON) for `grantIfChanged`.
   */
  async touch(
    tokenHash: string,
    now: number,
    idleMs: number,
  ): Promise<(AdminSessionRecord & { storedAccess: string[] }) | null> {
    const s = await this.redis.authAdminSessionTouch(redisKeys.adminSession(tokenHash), now, idleMs);
    if (!s) return null;
    const [
      userId = '',
      createdAt,
      expiresAt,
      lastSeenAt,
      ip = '',
      userAgent = '',
      role = '',
      permissions = '',
    ] = s;
    return {
      userId,
      createdAt: Number(createdAt),
      expiresAt: Number(expiresAt),
      lastSeenAt: Number(lastSeenAt),
      ip,
      userAgent,
      storedAccess: ['role', role, 'permissions', permissions],
    };
  }

  /** Ends one session (idempotent); answers whose it was, or null when there was none. */
  async end(tokenHash: string): Promise<string | null> {
    const userId = await this.redis.authAdminSessionEnd(redisKeys.adminSession(tokenHash));
    if (userId) await this.redis.srem(redisKeys.adminSessionsOf(userId), tokenHash);
    return userId;
  }

  /**
   * Ends every admin session of a user (account locked, demoted, deleted, 2FA removed); answers how
   * many were live. Members are removed one by one rather than the whole index deleted, so a
   * session created meanwhile keeps its place in the index.
   */
  async endAllFor(userId: string): Promise<number> {
    const index = redisKeys.adminSessionsOf(userId);
    const hashes = await this.redis.smembers(index);
    if (hashes.length === 0) return 0;
    const [deleted] = await this.redis
      .multi()
      .del(...hashes.map((h) => redisKeys.adminSession(h)))
      .srem(index, ...hashes)
      .exec()
      .then((replies) => (replies ?? []).map(([error, value]) => (error ? 0 : Number(value))));
    return deleted ?? 0;
  }
}
