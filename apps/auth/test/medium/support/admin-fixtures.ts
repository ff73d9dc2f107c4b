import {
  AUTH_PATTERNS,
  SEALED_RE,
  type AuthResponse,
  type Permission,
  type RpcAdmin,
  type RpcContext,
  type SignupBody,
  type WithRefresh,
} from '@vault/contracts';
import { redisKeys } from '@vault/server-kit';
import { adminContext } from '@vault/server-kit/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { AdminSessionsRepository } from '../../../src/repositories/admin-sessions.repository';
import type { AuthTestApp } from './auth-test-app';
import { authOf, signupBody } from './auth-test-app';

/** An account made by a real sign-up, with the session it opened. */
export interface TestAccount {
  body: SignupBody;
  userId: string;
  sessionId: string;
  refreshToken: string;
  ctx: Partial<RpcContext>;
}

let ipCounter = 0;
/** A different IP per sign-in, so the per-IP throttle never joins unrelated tests. */
export const freshIp = (): string => `203.0.113.${((ipCounter += 1) % 250) + 1}`;

export async function signUp(t: AuthTestApp, overrides: Partial<SignupBody> = {}): Promise<TestAccount> {
  const body = signupBody(overrides);
  const res = await t.call<WithRefresh<AuthResponse>>(AUTH_PATTERNS.signup, body, { ip: freshIp() });
  const sessionId = res.refresh!.token.split('.')[0]!;
  return {
    body,
    userId: res.body.user.id,
    sessionId,
    refreshToken: res.refresh!.token,
    ctx: authOf(res.body.user.id, sessionId),
  };
}

/**
 * The context the admin service sends: the admin as the gateway's admin guard read them, with a
 * live console session holding these rights (server-kit's adminContext).
 */
export function adminCtx(
  permissions: Permission[],
  role: RpcAdmin['role'] = 'admin',
  id: string = randomUUID(),
): Partial<RpcContext> {
  const { admin } = adminContext(permissions, role, id);
  return { admin: { ...admin, label: 'admin_test' }, ip: '198.51.100.7', userAgent: 'AdminConsole/1' };
}

export const superAdmin = (id?: string): Partial<RpcContext> => adminCtx([], 'super_admin', id);

/**
 * A signed-up account made super_admin in the database (set-role and a super_admin's lock
 * re-check the actor's row), with its admin context.
 */
export async function signUpSuperAdmin(
  t: AuthTestApp,
): Promise<TestAccount & { admin: Partial<RpcContext> }> {
  const account = await signUp(t);
  await t.pg.query(`UPDATE auth.users SET role = 'super_admin' WHERE id = $1`, [account.userId]);
  return { ...account, admin: superAdmin(account.userId) };
}

/**
 * Fails when an answer carries anything secret-shaped: a sealed value (ciphertext, wrapped key),
 * an Argon2 hash, or one of the account's own secrets.
 */
export function expectNoSecrets(answer: unknown, account?: TestAccount): void {
  const text = JSON.stringify(answer);
  const strings: string[] = [];
  JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === 'string') strings.push(value);
    return value;
  });
  expect(strings.filter((s) => SEALED_RE.test(s))).toEqual([]);
  expect(text).not.toContain('$argon2');
  expect(text).not.toMatch(
    /authHash|auth_hash|wrappedVaultKey|wrapped_vault_key|kdfParams|"salt"|recoveryAuthHash|recovery_auth_hash/i,
  );
  if (account) {
    for (const secret of [
      account.body.authKey,
      account.body.salt,
      account.body.wrappedVaultKey,
      account.refreshToken,
    ]) {
      expect(text).not.toContain(secret);
    }
  }
}

/** The account's events of one type, oldest first. */
export async function eventsOf(
  t: AuthTestApp,
  userId: string,
  type: string,
): Promise<{ details: Record<string, unknown>; ip_address: string }[]> {
  const res = await t.pg.query<{ details: Record<string, unknown>; ip_address: string }>(
    `SELECT details, ip_address FROM auth.security_events WHERE user_id = $1 AND event_type = $2 ORDER BY created_at`,
    [userId, type],
  );
  return res.rows;
}

/** An admin-console session of the account, as the admin sign-in makes them; answers its token hash. */
export async function openConsoleSession(t: AuthTestApp, userId: string): Promise<string> {
  const hash = randomBytes(32).toString('hex');
  const now = Date.now();
  const record = {
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + 3_600_000,
    ip: '',
    userAgent: '',
  };
  await t.app.get(AdminSessionsRepository).create(hash, record, 600_000, { role: 'admin', permissions: [] });
  return hash;
}

export async function consoleSessionLives(t: AuthTestApp, hash: string): Promise<boolean> {
  return (await t.redis.client.exists(redisKeys.adminSession(hash))) === 1;
}
