import {
  ACCESS_TOKEN,
  AUTH_PATTERNS,
  type AuthResponse,
  type LoginResponse,
  type MeResponse,
  type RefreshResponse,
  type WithRefresh,
} from '@vault/contracts';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { importSPKI, jwtVerify } from 'jose';
import { DataSource } from 'typeorm';
import { demoteAccount, promoteAccount, setAccountRole } from '../../src/cli/account-role';
import { authOf, signupBody, startAuthTestApp, testAppPerFile } from './support/auth-test-app';

const ROOT = join(__dirname, '..', '..', '..', '..');
const CLI = join(ROOT, 'apps', 'auth', 'dist', 'cli', 'promote.js');
/** Nothing listens there: a command that connected would fail with exit code 1. */
const NO_DATABASE = 'postgres://postgres@127.0.0.1:1/vault';

describe('the role commands (promote.js)', () => {
  const t = testAppPerFile(() => startAuthTestApp('promote'));
  const dataSource = () => t.app.get(DataSource);

  async function newAccount() {
    const body = signupBody();
    const res = await t.call<WithRefresh<AuthResponse>>(AUTH_PATTERNS.signup, body);
    const refreshToken = res.refresh!.token;
    return { body, userId: res.body.user.id, refreshToken, sid: refreshToken.split('.')[0]! };
  }

  const stored = async (userId: string) =>
    (await t.pg.query(`SELECT role, permissions FROM auth.users WHERE id = $1`, [userId])).rows[0] as {
      role: string;
      permissions: string[];
    };
  const roleEvents = async (userId: string) =>
    (
      await t.pg.query(
        `SELECT details, ip_address, user_agent FROM auth.security_events
         WHERE user_id = $1 AND event_type = 'role_changed' ORDER BY created_at`,
        [userId],
      )
    ).rows as { details: Record<string, unknown>; ip_address: string; user_agent: string }[];
  const roleClaim = async (access: string) => {
    const key = await importSPKI(t.publicKeyPem, 'EdDSA');
    const { payload } = await jwtVerify(access, key, {
      audience: ACCESS_TOKEN.audience,
      issuer: ACCESS_TOKEN.issuer,
    });
    return payload.role;
  };

  it('makes the account super_admin, records one event, and the next me, refresh and sign-in carry the role', async () => {
    const a = await newAccount();
    const result = await promoteAccount(dataSource(), `  ${a.body.username.toUpperCase()} `);
    expect(result).toEqual({
      outcome: 'changed',
      user: { id: a.userId, username: a.body.username, email: a.body.email.toLowerCase() },
      from: 'user',
      to: 'super_admin',
      permissions: [],
    });
    expect(await stored(a.userId)).toEqual({ role: 'super_admin', permissions: [] });
    expect(await roleEvents(a.userId)).toEqual([
      { details: { from: 'user', to: 'super_admin', by: 'command line' }, ip_address: '', user_agent: '' },
    ]);

    // The session from before the promotion is kept: me reads the stored role...
    const me = await t.call<MeResponse>(AUTH_PATTERNS.me, undefined, authOf(a.userId, a.sid));
    expect(me.user.role).toBe('super_admin');
    // ...and its next refresh signs it into the access token.
    const refreshed = await t.call<WithRefresh<RefreshResponse>>(AUTH_PATTERNS.refresh, {
      refreshToken: a.refreshToken,
    });
    expect(await roleClaim(refreshed.body.access)).toBe('super_admin');

    const login = await t.call<WithRefresh<LoginResponse>>(AUTH_PATTERNS.login, {
      identifier: a.body.email,
      authKey: a.body.authKey,
    });
    if (!('access' in login.body)) throw new Error('expected a session');
    expect(login.body.user.role).toBe('super_admin');
    expect(await roleClaim(login.body.access)).toBe('super_admin');
  });

  it('changes nothing and writes no event for an account that is already super_admin', async () => {
    const a = await newAccount();
    await promoteAccount(dataSource(), a.body.email);
    const again = await promoteAccount(dataSource(), a.body.email.toUpperCase());
    expect(again).toMatchObject({ outcome: 'unchanged', role: 'super_admin' });
    expect(await roleEvents(a.userId)).toHaveLength(1);
  });

  it('fails clearly for an unknown account and refuses phone numbers', async () => {
    const a = await newAccount();
    expect(await promoteAccount(dataSource(), 'nobody_like_this')).toEqual({ outcome: 'not_found' });
    expect(await promoteAccount(dataSource(), 'nobody@example.com')).toEqual({ outcome: 'not_found' });
    expect(await promoteAccount(dataSource(), a.body.phoneNumber)).toEqual({ outcome: 'phone_refused' });
    expect(await stored(a.userId)).toEqual({ role: 'user', permissions: [] });
    expect(await roleEvents(a.userId)).toEqual([]);
  });

  it('makes an admin with exactly the given permissions, and demotes back to user', async () => {
    const a = await newAccount();
    const admin = await setAccountRole(dataSource(), a.body.username, {
      role: 'admin',
      permissions: ['users:read', 'users:lock', 'users:read'],
    });
    expect(admin).toMatchObject({
      outcome: 'changed',
      to: 'admin',
      permissions: ['users:read', 'users:lock'],
    });
    expect(await stored(a.userId)).toEqual({ role: 'admin', permissions: ['users:read', 'users:lock'] });
    const me = await t.call<MeResponse>(AUTH_PATTERNS.me, undefined, authOf(a.userId, a.sid));
    expect(me.user).toMatchObject({ role: 'admin', permissions: ['users:read', 'users:lock'] });

    expect(await demoteAccount(dataSource(), a.body.username)).toMatchObject({
      outcome: 'changed',
      from: 'admin',
      to: 'user',
    });
    expect(await stored(a.userId)).toEqual({ role: 'user', permissions: [] });
    expect(await demoteAccount(dataSource(), a.body.username)).toMatchObject({ outcome: 'unchanged' });
    expect((await roleEvents(a.userId)).map((e) => e.details)).toEqual([
      { from: 'user', to: 'admin', by: 'command line', permissions: 'users:read,users:lock' },
      { from: 'admin', to: 'user', by: 'command line' },
    ]);
  });

  describe('the compiled command', () => {
    const run = async (args: string[], databaseUrl = t.db.url) => {
      if (!existsSync(CLI))
        throw new Error(`${CLI} is missing: build first (npx tsc -b apps/auth/tsconfig.json)`);
      try {
        const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], {
          cwd: ROOT,
          env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl },
          timeout: 30_000,
        });
        return { code: 0, stdout, stderr };
      } catch (error) {
        const failed = error as { code?: number; stdout?: string; stderr?: string };
        if (typeof failed.code !== 'number') throw error;
        return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
      }
    };

    it('answers bad usage and phone numbers with the usage text and exit code 2, before connecting', async () => {
      for (const args of [[], ['a', 'b'], ['--role', 'admin', 'a']]) {
        const usage = await run(args, NO_DATABASE);
        expect(usage.code).toBe(2);
        expect(usage.stdout).toBe('');
        expect(usage.stderr).toContain('usage: node apps/auth/dist/cli/promote.js <username|email>');
      }
      const phone = await run(['+1 555 0100'], NO_DATABASE);
      expect(phone).toEqual({
        code: 2,
        stdout: '',
        stderr: 'Phone numbers are not accepted here (+1 555 0100): give the username or e-mail address\n',
      });
    });

    it('promotes, says when there is nothing to do, answers 1 for an unknown account, and demotes', async () => {
      const a = await newAccount();
      const email = a.body.email.toLowerCase();

      const promoted = await run([a.body.username]);
      expect(promoted).toEqual({
        code: 0,
        stdout: `Promoted ${a.body.username} ${email} to super_admin\n`,
        stderr: '',
      });
      expect(await stored(a.userId)).toMatchObject({ role: 'super_admin' });

      const again = await run([a.body.email]);
      expect(again.code).toBe(0);
      expect(again.stdout).toBe(`${a.body.username} ${email} is already super_admin; nothing changed\n`);
      expect(await roleEvents(a.userId)).toHaveLength(1);

      const unknown = await run(['Nobody_Like_This']);
      expect(unknown).toEqual({ code: 1, stdout: '', stderr: 'No account matches Nobody_Like_This\n' });

      const admin = await run(['--role', 'admin', '--permissions', 'users:read,sessions:revoke', email]);
      expect(admin.stdout).toBe(
        `Promoted ${a.body.username} ${email} to admin (users:read, sessions:revoke)\n`,
      );
      const demoted = await run(['--demote', a.body.username]);
      expect(demoted).toEqual({
        code: 0,
        stdout: `Demoted ${a.body.username} ${email} to user\n`,
        stderr: '',
      });
      expect(await stored(a.userId)).toEqual({ role: 'user', permissions: [] });

      // Output never holds a hash or a key.
      const row = (
        await t.pg.query(`SELECT auth_hash, salt, wrapped_vault_key FROM auth.users WHERE id = $1`, [
          a.userId,
        ])
      ).rows[0] as Record<string, string>;
      for (const out of [promoted, again, admin, demoted]) {
        for (const secret of Object.values(row)) expect(out.stdout + out.stderr).not.toContain(secret);
      }
    });

    it('names the server when the database does not answer', async () => {
      const down = await run(['someone'], NO_DATABASE);
      expect(down.code).toBe(1);
      expect(down.stderr).toContain('PostgreSQL is unreachable at 127.0.0.1:1/vault');
    });
  });
});
