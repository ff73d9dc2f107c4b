import { REFRESH_COOKIE } from '@vault/contracts';
import { openBrowser, signUp } from '../support/accounts';
import { meStatus } from '../support/expect';
import { ApiClient, isCookieCleared } from '../support/http';

describe('POST /api/auth/logout', () => {
  it('answers 204 and clears the refresh cookie on its path', async () => {
    const { client } = await signUp();
    const res = await client.post('/api/auth/logout');

    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const cleared = res.cookie(REFRESH_COOKIE.name);
    expect(cleared).toBeDefined();
    expect(cleared && isCookieCleared(cleared)).toBe(true);
    expect(cleared?.attributes['path']).toBe(REFRESH_COOKIE.path);
    expect(client.refreshToken).toBeUndefined();
  });

  it('revokes the session: its access token answers 401 on the next call', async () => {
    const { client, signup } = await signUp();
    expect(await meStatus(client)).toBe(200);

    expect((await client.post('/api/auth/logout')).status).toBe(204);
    expect(await meStatus(client, signup.body.access)).toBe(401);
  });

  it('revokes the refresh token too: a kept copy of the cookie no longer refreshes', async () => {
    const { client } = await signUp();
    const kept = client.refreshToken ?? '';
    expect((await client.post('/api/auth/logout')).status).toBe(204);

    const thief = new ApiClient('kept-cookie');
    thief.jar.set(REFRESH_COOKIE.name, kept, REFRESH_COOKIE.path);
    expect((await thief.post('/api/auth/refresh', undefined, { token: null })).status).toBe(401);
  });

  it("ends only this browser's session: the account's other sessions carry on", async () => {
    const account = await signUp();
    const other = await openBrowser(account, 'other');

    expect((await account.client.post('/api/auth/logout')).status).toBe(204);
    expect(await meStatus(other)).toBe(200);
    expect((await other.post('/api/auth/refresh', undefined, { token: null })).status).toBe(200);
  });
});
