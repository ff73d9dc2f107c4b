import { ErrorCode, REFRESH_COOKIE, type RefreshResponse } from '@vault/contracts';
import { openBrowser, signUp, type TestAccount } from '../support/accounts';
import { STACK, sleep } from '../support/env';
import { expectError, expectRefreshCookie, meStatus } from '../support/expect';
import { ApiClient } from '../support/http';
import { decodeJwt } from '../support/jwt';

const REFRESH = '/api/auth/refresh';

/** A browser holding only the given refresh cookie (as if it had kept an old copy of it). */
function browserWithCookie(token: string, name = 'replay'): ApiClient {
  const client = new ApiClient(name);
  client.jar.set(REFRESH_COOKIE.name, token, REFRESH_COOKIE.path);
  return client;
}

function refresh(client: ApiClient) {
  return client.post<RefreshResponse>(REFRESH, undefined, { token: null });
}

describe('POST /api/auth/refresh', () => {
  let account: TestAccount;

  beforeEach(async () => {
    account = await signUp();
  });

  it('answers a new access token for the same session and rotates the refresh cookie', async () => {
    const { client } = account;
    const before = client.refreshToken;
    const res = await refresh(client);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access: expect.any(String) });
    const rotated = expectRefreshCookie(res);
    expect(rotated).not.toBe(before);
    expect(decodeJwt(res.body.access).payload).toEqual(
      expect.objectContaining({
        sub: account.user.id,
        sid: decodeJwt(account.signup.body.access).payload['sid'],
      }),
    );
    expect(await meStatus(client, res.body.access)).toBe(200);
  });

  it('keeps rotating: each new cookie refreshes in turn', async () => {
    const { client } = account;
    const seen = new Set([client.refreshToken]);
    for (let i = 0; i < 3; i += 1) {
      const res = await refresh(client);
      expect(res.status).toBe(200);
      seen.add(client.refreshToken);
    }
    expect(seen.size).toBe(4);
  });

  it('answers 401 without a cookie, and for a cookie it never issued', async () => {
    expect((await refresh(new ApiClient('no-cookie'))).status).toBe(401);
    const forged = await refresh(browserWithCookie('x'.repeat(43), 'forged'));
    expect(forged.status).toBe(401);
    expect(forged.cookie(REFRESH_COOKIE.name)?.value ?? '').toBe('');
  });

  it('answers a cookie naming a live session with a secret it never issued REFRESH_INVALID, and the session lives on', async () => {
    const { client } = account;
    const issued = client.refreshToken!;
    const sid = issued.slice(0, issued.indexOf('.'));
    for (const secret of ['A'.repeat(43), Buffer.alloc(32, 1).toString('base64url')]) {
      const forged = await refresh(browserWithCookie(`${sid}.${secret}`, 'forged-secret'));
      expectError(forged, 401, 'Invalid refresh token', { code: ErrorCode.REFRESH_INVALID });
    }
    // The same answer as for a session id that does not exist: nothing tells the two apart.
    const unknown = await refresh(
      browserWithCookie(`${crypto.randomUUID()}.${'A'.repeat(43)}`, 'unknown-sid'),
    );
    expectError(unknown, 401, 'Invalid refresh token', { code: ErrorCode.REFRESH_INVALID });
    expect(await meStatus(client)).toBe(200);
    expect((await refresh(client)).status).toBe(200);
  });

  it('does not take an access token in place of the refresh cookie', async () => {
    const res = await refresh(browserWithCookie(account.signup.body.access, 'access-as-cookie'));
    expect(res.status).toBe(401);
  });

  it('answers an old cookie replayed within the grace period with a new access token and no new cookie', async () => {
    const old = account.client.refreshToken ?? '';
    expect((await refresh(account.client)).status).toBe(200);

    const replay = await refresh(browserWithCookie(old));
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ access: expect.any(String) });
    expect(replay.cookie(REFRESH_COOKIE.name)).toBeUndefined();
    expect(await meStatus(account.client, replay.body.access)).toBe(200);
    // The rotated cookie is still the live one.
    expect((await refresh(account.client)).status).toBe(200);
  });

  it('answers two concurrent refreshes with the same cookie both with 200, and the session carries on', async () => {
    const cookie = account.client.refreshToken ?? '';
    const a = browserWithCookie(cookie, 'tab-a');
    const b = browserWithCookie(cookie, 'tab-b');
    const [ra, rb] = await Promise.all([refresh(a), refresh(b)]);

    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(await meStatus(a, ra.body.access)).toBe(200);
    expect(await meStatus(b, rb.body.access)).toBe(200);
    const winner = [ra, rb].find((r) => r.cookie(REFRESH_COOKIE.name)) === ra ? a : b;
    expect(winner.refreshToken).not.toBe(cookie);
    expect((await refresh(winner)).status).toBe(200);
  });

  it('treats an old cookie replayed after the grace period as theft: 401 REFRESH_REUSED and the session is revoked', async () => {
    const old = account.client.refreshToken ?? '';
    const rotated = await refresh(account.client);
    expect(rotated.status).toBe(200);
    const latestAccess = rotated.body.access;
    expect(await meStatus(account.client, latestAccess)).toBe(200);

    await sleep((STACK.refreshReuseGraceSeconds + 1) * 1000);
    const replay = await refresh(browserWithCookie(old));

    expectError(replay, 401, /\S/, { code: ErrorCode.REFRESH_REUSED });
    expect(await meStatus(account.client, latestAccess)).toBe(401);
    expect(await meStatus(account.client, account.signup.body.access)).toBe(401);
    expect((await refresh(account.client)).status).toBe(401);
  });

  it('revokes only the session whose cookie was reused: the same account on another browser carries on', async () => {
    const other = await openBrowser(account, 'other');
    const old = account.client.refreshToken ?? '';
    expect((await refresh(account.client)).status).toBe(200);
    await sleep((STACK.refreshReuseGraceSeconds + 1) * 1000);
    expect((await refresh(browserWithCookie(old))).status).toBe(401);

    expect(await meStatus(other)).toBe(200);
    expect((await refresh(other)).status).toBe(200);
  });
});
