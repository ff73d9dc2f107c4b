/**
 * The admin console's API through the gateway (docs/api.md "Admin"): permissions on every route,
 * the account actions and their effect on the account, the system health, zero knowledge in every
 * answer, and the audit log's hash chain found broken by `npm run admin -- verify-audit`.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  ErrorCode,
  SEALED_KEY_RE,
  SEALED_RE,
  type AdminSessionList,
  type AdminUserDetails,
  type AuditList,
  type AuditVerify,
  type Requires2faResponse,
  type SystemHealth,
} from '@vault/contracts';
import { Client } from 'pg';
import { login, openBrowser, signUp, type TestAccount } from '../support/accounts';
import { adminSignIn, createAdmin, enableTwoFactor, setRole, type AdminSignIn } from '../support/admin';
import { e2eEnv } from '../support/env';
import { decodeJwt } from '../support/jwt';
import { createNote, markedPlaintext } from '../support/notes';
import { ApiClient, type ApiResponse } from '../support/http';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..', '..');

interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
}

/** Every /api/admin operation of the OpenAPI document but the sign-in's own, with its ids filled in. */
async function adminOperations(): Promise<Array<{ method: string; path: string }>> {
  const doc = (await new ApiClient('docs').get<OpenApiDocument>('/api/docs/openapi.json', { token: null }))
    .body;
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/admin/') && path !== '/api/admin/session')
    .flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => ['get', 'post', 'put', 'delete'].includes(m))
        .map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, randomUUID()) })),
    );
}

describe('admin API (e2e)', () => {
  let root: AdminSignIn;
  let target: TestAccount;
  const marker = `admin-marker-${randomUUID()}`;
  /** Every admin answer's text, checked for secrets and user data at the end. */
  const answers: string[] = [];
  const admin = async <T>(method: string, path: string, json?: unknown): Promise<ApiResponse<T>> => {
    const res = await root.client.request<T>(method, path, json === undefined ? {} : { json });
    answers.push(res.text);
    return res;
  };

  beforeAll(async () => {
    root = await adminSignIn(await createAdmin('super_admin'));
    target = await signUp();
    await createNote(target, markedPlaintext(marker));
  });

  it('refuses every /api/admin route: 403 ADMIN_REQUIRED to a regular account, 401 to nobody', async () => {
    const operations = await adminOperations();
    expect(operations.length).toBeGreaterThanOrEqual(22);
    const plain = await signUp();
    const nobody = new ApiClient('nobody');
    for (const { method, path } of operations) {
      const init = method === 'GET' ? {} : { json: {} };
      const res = await plain.client.request(method, path, init);
      expect([method, path, res.status]).toEqual([method, path, 403]);
      expect((res.body as { code: string }).code).toBe(ErrorCode.ADMIN_REQUIRED);
      const anonymous = await nobody.request(method, path, init);
      expect([method, path, anonymous.status]).toEqual([method, path, 401]);
    }
  });

  it('answers 403 on every /api/admin route an admin has no permission for', async () => {
    const operations = await adminOperations();
    const auditor = await adminSignIn(await createAdmin('admin', ['audit:read']));
    for (const { method, path } of operations) {
      const res = await auditor.client.request(method, path, method === 'GET' ? {} : { json: {} });
      const allowed = method === 'GET' && /^\/api\/admin\/audit(\/verify)?$/.test(path);
      expect([method, path, res.status]).toEqual([method, path, allowed ? 200 : 403]);
      if (!allowed) expect((res.body as { code: string }).code).toBe(ErrorCode.PERMISSION_DENIED);
    }
  });

  it('ends the console session of an admin demoted to a regular account', async () => {
    const demoted = await createAdmin('admin', ['users:read']);
    const session = await adminSignIn(demoted);
    expect((await session.client.get('/api/admin/users')).status).toBe(200);
    await setRole(demoted, 'user');
    expect([401, 403]).toContain((await session.client.get('/api/admin/users')).status);
  });

  it('refuses an action the admin has no permission for, and allows what it has', async () => {
    const reader = await adminSignIn(await createAdmin('admin', ['users:read']));
    const lock = await reader.client.post(`/api/admin/users/${target.user.id}/lock`, {
      reason: 'x',
      duration: 5,
    });
    expect(lock.status).toBe(403);
    expect((lock.body as { code: string }).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect((await reader.client.get(`/api/admin/users/${target.user.id}`)).status).toBe(200);
    expect((await reader.client.get('/api/admin/stats')).status).toBe(403);
  });

  it('lets a super admin read everything, with Cache-Control: no-store', async () => {
    for (const path of [
      '/api/admin/stats',
      '/api/admin/activity',
      '/api/admin/users?search=' + encodeURIComponent(target.identity.username),
      `/api/admin/users/${target.user.id}`,
      '/api/admin/security/events',
      '/api/admin/sessions',
      '/api/admin/system/health',
      '/api/admin/scans/failed',
      '/api/admin/audit',
      '/api/admin/audit/verify',
    ]) {
      const res = await admin('GET', path);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers.get('cache-control')).toContain('no-store');
    }
    const details = (await admin<AdminUserDetails>('GET', `/api/admin/users/${target.user.id}`)).body;
    expect(details.counts.notes).toBe(1);
  });

  it('exports security events as a CSV attachment', async () => {
    const res = await admin('GET', `/api/admin/security/events.csv?userId=${target.user.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="security-events-.*\.csv"$/,
    );
    expect(res.headers.get('cache-control')).toContain('no-store');
    expect(res.text.split('\r\n')[0]).toBe(
      'id,timestamp,eventType,userId,username,email,ipAddress,userAgent,details',
    );
  });

  it('lock: the account cannot sign in (423 with retryAfter); unlock: it can again', async () => {
    const lock = await admin(`POST`, `/api/admin/users/${target.user.id}/lock`, {
      reason: 'Spam wave',
      duration: 30,
    });
    expect(lock.status).toBe(200);
    const refused = await login(new ApiClient('locked'), target.identity.username, target.keys.authKey);
    expect(refused.status).toBe(423);
    expect((refused.body as { retryAfter?: number }).retryAfter).toBeGreaterThan(0);

    expect(
      (await admin('POST', `/api/admin/users/${target.user.id}/unlock`, { reason: 'false alarm' })).status,
    ).toBe(200);
    const again = await login(new ApiClient('unlocked'), target.identity.username, target.keys.authKey);
    expect(again.status).toBe(200);
  });

  it("revoke: the session's next call is 401", async () => {
    const browser = await openBrowser(target, 'revoked');
    const sid = decodeJwt(browser.access!).payload.sid as string;
    const list = (await admin<AdminSessionList>('GET', `/api/admin/sessions?userId=${target.user.id}`)).body;
    expect(list.sessions.map((s) => s.sessionId)).toContain(sid);
    expect((await browser.get('/api/auth/me')).status).toBe(200);
    expect((await admin('DELETE', `/api/admin/sessions/${sid}`)).status).toBe(204);
    expect((await browser.get('/api/auth/me')).status).toBe(401);
  });

  it('remove-2fa: the account signs in without a code afterwards', async () => {
    const withCode = await enableTwoFactor(await signUp());
    const asked = await login(new ApiClient('2fa'), withCode.identity.username, withCode.keys.authKey);
    expect((asked.body as unknown as Requires2faResponse).requires2FA).toBe(true);
    const removed = await admin('POST', `/api/admin/users/${withCode.user.id}/remove-2fa`, {
      confirm: withCode.identity.username,
      reason: 'lost phone, identity checked',
    });
    expect(removed.status).toBe(200);
    const signedIn = await login(new ApiClient('no-2fa'), withCode.identity.username, withCode.keys.authKey);
    expect(signedIn.status).toBe(200);
    expect(typeof signedIn.body.access).toBe('string');
  });

  it('reports the services of the stack in the system health', async () => {
    const health = (await admin<SystemHealth>('GET', '/api/admin/system/health')).body;
    const byName = Object.fromEntries(health.services.map((s) => [s.name, s.status]));
    expect(byName).toMatchObject({ auth: 'up', notes: 'up', files: 'up', admin: 'up', 'scan-worker': 'up' });
    // The stack runs a real clamd (scripts/lib/clamd.mjs). Its own small signature database has no
    // version number, so clamd answers the engine alone (`ClamAV 1.4.6`); the official one adds it.
    expect(health.clamd).toMatchObject({ status: 'up', version: expect.stringMatching(/^ClamAV \d+\.\d+/) });
    const { signatureVersion } = health.clamd;
    expect(signatureVersion === null || Number.isInteger(signatureVersion)).toBe(true);
    expect(health.queues.length).toBeGreaterThanOrEqual(5);
    expect(health.database.status).toBe('up');
    expect(health.redis.status).toBe('up');
  });

  it('answers no sealed value, no password hash and none of the user’s own text', () => {
    expect(answers.length).toBeGreaterThan(10);
    for (const text of answers) {
      expect(text).not.toContain(marker);
      expect(text).not.toContain('$argon2');
      const strings = text.match(/"[^"]*"/g) ?? [];
      for (const s of strings.map((q) => q.slice(1, -1))) {
        expect(SEALED_RE.test(s) || SEALED_KEY_RE.test(s)).toBe(false);
      }
    }
  });

  it('the audit log holds every action, and an entry altered in Postgres is found by verify-audit', async () => {
    const log = (await admin<AuditList>('GET', '/api/admin/audit?limit=200')).body;
    const actions = log.entries.map((e) => e.action);
    for (const action of [
      'user.lock',
      'user.unlock',
      'session.revoke',
      'session.revoke.owner',
      'user.remove-2fa',
    ]) {
      expect(actions).toContain(action);
    }
    const databaseUrl = e2eEnv().databaseUrl!;
    const verify = () =>
      run('npm', ['run', '--silent', 'admin', '--', 'verify-audit'], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: databaseUrl },
      }).then(
        (r) => ({ code: 0, out: r.stdout + r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
      );
    expect((await verify()).code).toBe(0);

    const entry = log.entries.find((e) => e.action === 'user.lock')!;
    const pg = new Client({ connectionString: databaseUrl });
    await pg.connect();
    // The table's owner can switch the append-only triggers off: the hash chain is what catches it.
    const alter = (reason: string | null) =>
      pg.query(
        `BEGIN; ALTER TABLE admin.audit_log DISABLE TRIGGER USER;
         UPDATE admin.audit_log SET reason = ${reason === null ? 'NULL' : `'${reason.replace(/'/g, "''")}'`} WHERE id = ${entry.id};
         ALTER TABLE admin.audit_log ENABLE TRIGGER USER; COMMIT;`,
      );
    try {
      await alter('nothing happened');
      const broken = await verify();
      expect(broken.code).toBe(1);
      expect(broken.out).toContain(`BROKEN at entry ${entry.id}`);
      const api = (await admin<AuditVerify>('GET', '/api/admin/audit/verify')).body;
      expect(api).toMatchObject({ ok: false, firstBroken: { id: entry.id } });
    } finally {
      await alter(entry.reason);
      await pg.end();
    }
    expect((await verify()).code).toBe(0);
  });
});
