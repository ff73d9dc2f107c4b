/**
 * The admin console's sign-in through the gateway (docs/api.md "Admin sign-in"): the role and 2FA
 * requirements, the TOTP step, the shared lockout, the HttpOnly cookie scoped to /api/admin, and that
 * a vault access token opens nothing there.
 */
import {
  ADMIN_COOKIE,
  ADMIN_MESSAGES,
  ERROR_INFO,
  ErrorCode,
  type AdminSessionResponse,
  type Requires2faResponse,
} from '@vault/contracts';
import { signUp } from '../support/accounts';
import { adminSignIn, createAdmin, setRole, totpAt, forgetSpentSteps } from '../support/admin';
import { STACK } from '../support/env';
import { expectError, ISO_DATE } from '../support/expect';
import { ApiClient } from '../support/http';

const SESSION = '/api/admin/session';
const message = (code: ErrorCode) => ERROR_INFO[code].message;

const credentials = (a: { identity: { username: string }; keys: { authKey: string } }) => ({
  identifier: a.identity.username,
  authKey: a.keys.authKey,
});

describe('admin sign-in (API)', () => {
  it('refuses a regular account with the right key: 403 ADMIN_REQUIRED, no cookie', async () => {
    const user = await signUp();
    const res = await new ApiClient('plain').post(SESSION, credentials(user), { token: null });
    expectError(res, 403, message(ErrorCode.ADMIN_REQUIRED), { code: ErrorCode.ADMIN_REQUIRED });
    expect(res.cookie(ADMIN_COOKIE.name)).toBeUndefined();
  });

  it('refuses an admin without 2FA: 403 ADMIN_2FA_REQUIRED', async () => {
    const account = await signUp();
    await setRole(account, 'admin', ['users:read']);
    const res = await new ApiClient('no2fa').post(SESSION, credentials(account), { token: null });
    expectError(res, 403, message(ErrorCode.ADMIN_2FA_REQUIRED), { code: ErrorCode.ADMIN_2FA_REQUIRED });
  });

  it('asks for the code first (no cookie), and counts wrong codes toward the lockout: the 5th is 423', async () => {
    const admin = await createAdmin('super_admin');
    const client = new ApiClient('lockout');
    const step = await client.post<Requires2faResponse>(SESSION, credentials(admin), { token: null });
    expect(step.status).toBe(200);
    expect(step.body).toEqual({ requires2FA: true });
    expect(step.setCookies).toEqual([]);

    const wrong = (await totpAt(admin.secret)) === '000000' ? '000001' : '000000';
    for (let i = 1; i < STACK.lockoutThreshold; i += 1) {
      const res = await client.post(SESSION, { ...credentials(admin), totpCode: wrong }, { token: null });
      expect(res.status).toBe(401);
      expect((res.body as { code: string }).code).toBe(ErrorCode.INVALID_VERIFICATION_CODE);
    }
    const locked = await client.post(SESSION, { ...credentials(admin), totpCode: wrong }, { token: null });
    expect(locked.status).toBe(423);
    expect(locked.body).toEqual(expect.objectContaining({ code: ErrorCode.ACCOUNT_LOCKED, retryAfter: 600 }));
    expect(locked.headers.get('retry-after')).toBe('600');
    await forgetSpentSteps(admin.user.id);
    const right = { ...credentials(admin), totpCode: await totpAt(admin.secret) };
    expect((await client.post(SESSION, right, { token: null })).status).toBe(423);
  });

  it('signs in with an HttpOnly SameSite=Strict cookie scoped to /api/admin; GET session works with it only', async () => {
    const admin = await createAdmin('admin', ['users:read', 'audit:read']);
    const { client, res } = await adminSignIn(admin);
    const cookie = res.cookie(ADMIN_COOKIE.name);
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie?.attributes).toEqual(
      expect.objectContaining({ httponly: true, samesite: 'Strict', path: '/api/admin', 'max-age': '28800' }),
    );
    expect(res.setCookies.map((c) => c.name)).toEqual([ADMIN_COOKIE.name]);
    expect(res.body).toEqual({
      admin: {
        id: admin.user.id,
        email: admin.identity.email,
        username: admin.identity.username,
        role: 'admin',
        permissions: ['users:read', 'audit:read'],
      },
      expiresAt: expect.stringMatching(ISO_DATE),
      idleExpiresAt: expect.stringMatching(ISO_DATE),
    });
    expect(res.text).not.toContain(cookie!.value);
    expect(res.text).not.toMatch(/access|wrappedVaultKey/);

    const me = await client.get<AdminSessionResponse>(SESSION);
    expect(me.status).toBe(200);
    expect(me.body.admin.id).toBe(admin.user.id);
    expect(Date.parse(me.body.idleExpiresAt)).toBeGreaterThanOrEqual(Date.parse(res.body.idleExpiresAt));

    // The admin's own vault access token is no admin credential. Refreshed first: the one from
    // sign-up was signed before the promotion and still names a regular account (403, next test).
    const refreshed = await admin.client.post<{ access: string }>('/api/auth/refresh');
    expect(refreshed.status).toBe(200);
    const bearer = await new ApiClient('bearer').get(SESSION, { token: refreshed.body.access });
    expectError(bearer, 401, ADMIN_MESSAGES.signInRequired, { code: ErrorCode.UNAUTHENTICATED });
  });

  it('signs out: 204, cookie cleared, the old cookie is refused; signing out without one is 204 too', async () => {
    const admin = await createAdmin('super_admin');
    const { client, cookie } = await adminSignIn(admin);
    const out = await client.delete(SESSION);
    expect(out.status).toBe(204);
    expect(out.cookie(ADMIN_COOKIE.name)?.attributes).toEqual(
      expect.objectContaining({ path: '/api/admin' }),
    );
    expect(client.jar.get(ADMIN_COOKIE.name)).toBeUndefined();
    const replay = await new ApiClient('replay').get(SESSION, { headers: { cookie } });
    expect(replay.status).toBe(401);
    expect((await new ApiClient('nobody').delete(SESSION)).status).toBe(204);
  });

  it("ends a demoted admin's session: 403 ADMIN_REQUIRED, then 401", async () => {
    const admin = await createAdmin('admin', ['users:read']);
    const { client } = await adminSignIn(admin);
    await setRole(admin, 'user');
    expectError(await client.get(SESSION), 403, message(ErrorCode.ADMIN_REQUIRED), {
      code: ErrorCode.ADMIN_REQUIRED,
    });
    expect((await client.get(SESSION)).status).toBe(401);
  });

  it("answers 403 ADMIN_REQUIRED to a regular account's vault token, 401 without one, and 403 to a cross-origin state change", async () => {
    const user = await signUp();
    const res = await user.client.get(SESSION);
    expectError(res, 403, message(ErrorCode.ADMIN_REQUIRED), { code: ErrorCode.ADMIN_REQUIRED });
    const nobody = await new ApiClient('nobody').get(SESSION);
    expectError(nobody, 401, ADMIN_MESSAGES.signInRequired, { code: ErrorCode.UNAUTHENTICATED });

    const admin = await createAdmin('super_admin');
    const { client } = await adminSignIn(admin);
    const csrf = await client.delete(SESSION, { headers: { origin: 'https://evil.example' } });
    expectError(csrf, 403, message(ErrorCode.FORBIDDEN), { code: ErrorCode.FORBIDDEN });
    // The route matched decides, not the raw URL: an encoded spelling of the same route (the
    // session cookie sent along, as a lax browser might) is refused too, and ends nothing.
    const cookie = client.jar.headerFor(SESSION) ?? '';
    const encoded = await client.delete('/api/%61dmin/session', {
      headers: { origin: 'https://evil.example', cookie },
    });
    expectError(encoded, 403, message(ErrorCode.FORBIDDEN), { code: ErrorCode.FORBIDDEN });
    // The session was not ended by the refused requests.
    expect((await client.get(SESSION)).status).toBe(200);
  });
});
