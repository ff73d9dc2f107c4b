import { ADMIN_MESSAGES, ErrorCode, VaultError, type RpcAdmin } from '@vault/contracts';
import type Redis from 'ioredis';
import { redisKeys } from '../redis/redis';
import { readAdmin } from './rpc-request';

const ID = '7b0c4f0e-2a8e-4d1a-9c3e-0f3f4f5a6b7c';
const KEY = 'cd'.repeat(32);

/** A Redis holding one admin session hash; `hmget` answers its fields as ioredis does. */
function redisWith(hash: Record<string, string> | null, fail = false) {
  const hmget = jest.fn(async (key: string, ...fields: string[]) => {
    if (fail) throw new Error('connection lost');
    return fields.map((f) => (key === redisKeys.adminSession(KEY) && hash ? (hash[f] ?? null) : null));
  });
  return { hmget } as unknown as Pick<Redis, 'hmget'> & { hmget: typeof hmget };
}

const claim = (admin: Partial<RpcAdmin> = {}) => ({
  ctx: {
    admin: { id: ID, label: 'ann', role: 'super_admin', permissions: [], sessionKey: KEY, ...admin },
  },
});
const stored = { userId: ID, role: 'admin', permissions: '["users:read"]' };

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (e: unknown) => (e instanceof VaultError ? e.code : String(e)),
  );

describe('readAdmin', () => {
  it("takes role and permissions from the live session, never the message's, in one HMGET", async () => {
    const redis = redisWith(stored);
    const admin = await readAdmin(redis, claim(), 'users:read');
    expect(admin).toEqual({
      id: ID,
      label: 'ann',
      role: 'admin',
      permissions: ['users:read'],
      sessionKey: KEY,
    });
    expect(redis.hmget).toHaveBeenCalledTimes(1);
    expect(redis.hmget).toHaveBeenCalledWith(redisKeys.adminSession(KEY), 'userId', 'role', 'permissions');
  });

  it('refuses what the stored rights do not allow, whatever the message claims', async () => {
    const redis = redisWith(stored);
    expect(await codeOf(readAdmin(redis, claim(), 'users:lock'))).toBe(ErrorCode.PERMISSION_DENIED);
    const superOnly = await readAdmin(redis, claim(), 'super_admin').catch((e: VaultError) => e);
    expect(superOnly).toMatchObject({
      code: ErrorCode.PERMISSION_DENIED,
      message: ADMIN_MESSAGES.superAdminOnly,
    });
  });

  it('lets a stored super_admin meet any requirement', async () => {
    const redis = redisWith({ ...stored, role: 'super_admin', permissions: '[]' });
    await expect(readAdmin(redis, claim({ role: 'admin' }), 'super_admin')).resolves.toMatchObject({
      role: 'super_admin',
    });
    await expect(readAdmin(redis, claim(), 'audit:read')).resolves.toBeDefined();
  });

  it.each<[string, Record<string, string> | null]>([
    ['no session', null],
    ["another admin's session", { ...stored, userId: '0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b' }],
    ['a session without stored rights', { userId: ID }],
    ['an unknown stored role', { ...stored, role: 'root' }],
    ['malformed stored permissions', { ...stored, permissions: 'users:read' }],
  ])('answers UNAUTHENTICATED for %s', async (_what, hash) => {
    expect(await codeOf(readAdmin(redisWith(hash), claim(), 'stats:read'))).toBe(ErrorCode.UNAUTHENTICATED);
  });

  it('answers ADMIN_REQUIRED without an admin, UNAUTHENTICATED for a malformed session key', async () => {
    const redis = redisWith(stored);
    expect(await codeOf(readAdmin(redis, { ctx: {} }, 'stats:read'))).toBe(ErrorCode.ADMIN_REQUIRED);
    for (const sessionKey of [undefined, 'abc', KEY.toUpperCase()]) {
      const admin = { ...claim().ctx.admin, sessionKey };
      expect(await codeOf(readAdmin(redis, { ctx: { admin } }, 'stats:read'))).toBe(
        ErrorCode.UNAUTHENTICATED,
      );
    }
    expect(redis.hmget).not.toHaveBeenCalled();
  });

  it('answers SERVICE_UNAVAILABLE when Redis fails, and reports the error', async () => {
    const onError = jest.fn();
    const code = await codeOf(readAdmin(redisWith(stored, true), claim(), 'stats:read', onError));
    expect(code).toBe(ErrorCode.SERVICE_UNAVAILABLE);
    expect(onError).toHaveBeenCalledWith(expect.any(Error));
  });
});
