/**
 * Admins for the API end-to-end tests: an account signed up through the gateway, 2FA turned on through
 * the API, promoted with the real role command (`apps/auth/dist/cli/promote.js`, apps/auth README "The
 * first admin") and signed in to the console (`POST /api/admin/session`, docs/api.md "Admin sign-in").
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import {
  ADMIN_COOKIE,
  type AdminRole,
  type AdminSessionResponse,
  type BackupCodesResponse,
  type Permission,
  type TwoFactorEnableResponse,
} from '@vault/contracts';
import Redis from 'ioredis';
import { generate } from 'otplib';
import { signUp, type SignUpOptions, type TestAccount } from './accounts';
import { e2eEnv } from './env';
import { ApiClient, assertStatus, type ApiResponse } from './http';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..', '..');
const PROMOTE = join(ROOT, 'apps', 'auth', 'dist', 'cli', 'promote.js');

export interface TwoFactorAccount extends TestAccount {
  /** The TOTP secret (from the otpauth URL), to compute codes as an authenticator app does. */
  secret: string;
  backupCodes: string[];
}

export interface TestAdmin extends TwoFactorAccount {
  role: AdminRole;
  permissions: Permission[];
}

export interface AdminSignIn {
  /** A browser with no access token: only the admin cookie (Path=/api/admin) in its jar. */
  client: ApiClient;
  /** `vault_admin=<token>`, to send as a Cookie header from another client. */
  cookie: string;
  res: ApiResponse<AdminSessionResponse>;
}

/** The TOTP code of the step `offset` steps from now. */
export const totpAt = (secret: string, offset = 0): Promise<string> =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

/**
 * A code's time step is accepted once (`totp-used:{userId}:{step}`), so two sign-ins in the same half
 * minute would refuse the second code. Tests that sign in again forget those marks first.
 */
export async function forgetSpentSteps(userId: string): Promise<void> {
  const env = e2eEnv();
  if (!env.redisUrl || !env.redisPrefix) throw new Error('VAULT_E2E_REDIS_URL/PREFIX are not set');
  const redis = new Redis(env.redisUrl, { keyPrefix: env.redisPrefix, maxRetriesPerRequest: 2 });
  try {
    const keys = await redis.keys(`${env.redisPrefix}totp-used:${userId}:*`);
    for (const key of keys) await redis.del(key.slice(env.redisPrefix.length));
  } finally {
    redis.disconnect();
  }
}

/** Turns 2FA on for a signed-up account through the API (enable + verify). */
export async function enableTwoFactor(account: TestAccount): Promise<TwoFactorAccount> {
  const { otpauthUrl } = assertStatus(
    await account.client.post<TwoFactorEnableResponse>('/api/auth/2fa/enable', {}),
    200,
    '2fa enable',
  ).body;
  const secret = new URL(otpauthUrl).searchParams.get('secret') ?? '';
  const { backupCodes } = assertStatus(
    await account.client.post<BackupCodesResponse>('/api/auth/2fa/verify', { code: await totpAt(secret) }),
    200,
    '2fa verify',
  ).body;
  await forgetSpentSteps(account.user.id);
  return { ...account, secret, backupCodes };
}

/**
 * Sets the account's role with the real command: `super_admin`, `admin` with exactly `permissions`
 * (the command needs at least one), or `user` (demoted, permissions cleared).
 */
export async function setRole(
  account: TestAccount,
  role: AdminRole | 'user',
  permissions: readonly Permission[] = [],
): Promise<void> {
  const databaseUrl = e2eEnv().databaseUrl;
  if (!databaseUrl) throw new Error('VAULT_E2E_DATABASE_URL is not set');
  const args =
    role === 'user'
      ? ['--demote']
      : role === 'admin'
        ? ['--role', 'admin', '--permissions', permissions.join(',')]
        : ['--role', 'super_admin'];
  await run(process.execPath, [PROMOTE, ...args, account.identity.username], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    timeout: 30_000,
  });
}

/** A new account with 2FA on, promoted to `role` (an `admin` needs at least one permission). */
export async function createAdmin(
  role: AdminRole = 'super_admin',
  permissions: readonly Permission[] = [],
  opts: SignUpOptions = {},
): Promise<TestAdmin> {
  const account = await enableTwoFactor(await signUp(opts));
  await setRole(account, role, permissions);
  return { ...account, role, permissions: role === 'admin' ? [...permissions] : [] };
}

/** `POST /api/admin/session` with the key and a fresh TOTP code; throws unless it signs in (200). */
export async function adminSignIn(admin: TwoFactorAccount, name = 'console'): Promise<AdminSignIn> {
  await forgetSpentSteps(admin.user.id);
  const client = new ApiClient(`${admin.identity.username}-${name}`);
  const res = assertStatus(
    await client.post<AdminSessionResponse>(
      '/api/admin/session',
      {
        identifier: admin.identity.username,
        authKey: admin.keys.authKey,
        totpCode: await totpAt(admin.secret),
      },
      { token: null },
    ),
    200,
    'admin sign-in',
  );
  const token = client.jar.get(ADMIN_COOKIE.name);
  if (!token) throw new Error(`admin sign-in: no ${ADMIN_COOKIE.name} cookie in the answer`);
  return { client, cookie: `${ADMIN_COOKIE.name}=${token}`, res };
}
