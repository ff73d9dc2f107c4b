import type { Permission, RpcAdmin, RpcContext } from '@vault/contracts';
import type Redis from 'ioredis';
import { randomBytes, randomUUID } from 'node:crypto';
// eslint-disable-next-line @nx/enforce-module-boundaries -- a relative path would point into testing/dist
import { redisKeys } from '@vault/server-kit';

/** What auth stores in an admin session hash: who, and the rights it read at its last check. */
interface StoredAdminSession {
  userId: string;
  role: RpcAdmin['role'];
  permissions: string[];
}

/** The sessions adminContext() made, by key: written into a test app's Redis before each call. */
const sessions = new Map<string, StoredAdminSession>();

/**
 * The context of an admin service call as the gateway's admin guard fills it: an admin holding
 * `permissions` (a `super_admin` holds every one whatever the list says), with a console session
 * of its own. The session is a real `admin-sess:{key}` hash (what readAdmin checks), written into
 * the Redis of the test app that receives the call (startRpcTestApp does, see
 * writeAdminSessions), with the role and permissions given here, whatever a test later puts in
 * the context: a test that forges the context's role still meets the stored ones.
 */
export function adminContext(
  permissions: readonly Permission[],
  role: RpcAdmin['role'] = 'admin',
  id: string = randomUUID(),
): Partial<RpcContext> & { admin: RpcAdmin } {
  const sessionKey = randomBytes(32).toString('hex');
  sessions.set(sessionKey, { userId: id, role, permissions: [...permissions] });
  return { admin: { id, label: 'test-admin', role, permissions: [...permissions], sessionKey } };
}

/** Stores an admin session hash the way auth's check leaves it (a test's own, e.g. another user's). */
export async function storeAdminSession(
  redis: Pick<Redis, 'hset' | 'pexpire'>,
  sessionKey: string,
  session: StoredAdminSession,
): Promise<void> {
  const key = redisKeys.adminSession(sessionKey);
  await redis.hset(key, {
    userId: session.userId,
    role: session.role,
    permissions: JSON.stringify(session.permissions),
  });
  await redis.pexpire(key, 3_600_000);
}

/** Writes the session of the context's admin, if adminContext() made it, into this Redis. */
export async function writeAdminSessions(
  redis: Pick<Redis, 'hset' | 'pexpire'>,
  ctx: Partial<RpcContext>,
): Promise<void> {
  const key = ctx.admin?.sessionKey;
  const session = key ? sessions.get(key) : undefined;
  if (key && session) await storeAdminSession(redis, key, session);
}
