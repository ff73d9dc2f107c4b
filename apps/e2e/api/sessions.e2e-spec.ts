import { randomUUID } from 'node:crypto';
import { type SessionDto, type SessionListResponse } from '@vault/contracts';
import { login, openBrowser, signUp, type TestAccount } from '../support/accounts';
import { ISO_DATE, UUID_V4, expectError, meStatus } from '../support/expect';
import { ApiClient, type ApiResponse } from '../support/http';
import { decodeJwt } from '../support/jwt';

const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$|^::1$/;

function sidOf(client: ApiClient): string {
  return String(decodeJwt(client.access ?? '').payload['sid']);
}

async function listSessions(client: ApiClient): Promise<ApiResponse<SessionListResponse>> {
  return client.get<SessionListResponse>('/api/auth/sessions');
}

describe('/api/auth/sessions', () => {
  let account: TestAccount;
  let laptop: ApiClient;

  beforeEach(async () => {
    account = await signUp();
    laptop = new ApiClient('laptop', { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) vault-e2e-laptop' });
    expect((await login(laptop, account.identity.email, account.keys.authKey)).status).toBe(200);
  });

  it("lists the caller's own devices, the calling one marked current", async () => {
    const res = await listSessions(laptop);

    expect(res.status).toBe(200);
    const sessions = res.body.sessions;
    expect(sessions).toHaveLength(2);
    for (const s of sessions) {
      expect(s).toEqual({
        id: expect.stringMatching(UUID_V4),
        current: expect.any(Boolean),
        ipAddress: expect.stringMatching(LOOPBACK),
        userAgent: expect.any(String),
        createdAt: expect.stringMatching(ISO_DATE),
        lastSeenAt: expect.stringMatching(ISO_DATE),
        expiresAt: expect.stringMatching(ISO_DATE),
      });
      expect(Date.parse(s.expiresAt)).toBeGreaterThan(Date.parse(s.createdAt));
    }
    const current = sessions.filter((s) => s.current);
    expect(current.map((s) => s.id)).toEqual([sidOf(laptop)]);
    expect(current[0]?.userAgent).toBe(laptop.userAgent);
    const others = sessions.filter((s) => !s.current);
    expect(others.map((s) => [s.id, s.userAgent])).toEqual([
      [sidOf(account.client), account.client.userAgent],
    ]);
  });

  it('marks current the session of whoever asks', async () => {
    const res = await listSessions(account.client);
    expect(res.status).toBe(200);
    expect(res.body.sessions.filter((s: SessionDto) => s.current).map((s) => s.id)).toEqual([
      sidOf(account.client),
    ]);
  });

  it("revokes another of the caller's sessions: 204, its token answers 401 at once, its cookie no longer refreshes", async () => {
    expect(await meStatus(laptop)).toBe(200);

    const res = await account.client.delete(`/api/auth/sessions/${sidOf(laptop)}`);
    expect(res.status).toBe(204);

    expect(await meStatus(laptop)).toBe(401);
    expect((await laptop.post('/api/auth/refresh', undefined, { token: null })).status).toBe(401);
    const list = await listSessions(account.client);
    expect(list.body.sessions.map((s) => s.id)).toEqual([sidOf(account.client)]);
    expect(await meStatus(account.client)).toBe(200);
  });

  it("answers 404 for another user's session, and leaves that session alone", async () => {
    const stranger = await signUp();
    const res = await account.client.delete(`/api/auth/sessions/${sidOf(stranger.client)}`);

    expectError(res, 404, /\S/);
    expect(await meStatus(stranger.client)).toBe(200);
    const theirs = await listSessions(stranger.client);
    expect(theirs.body.sessions.map((s) => s.id)).toContain(sidOf(stranger.client));
  });

  it('answers 404 for a session id that does not exist, exactly like for a foreign one', async () => {
    const stranger = await signUp();
    const missing = await account.client.delete(`/api/auth/sessions/${randomUUID()}`);
    const foreign = await account.client.delete(`/api/auth/sessions/${sidOf(stranger.client)}`);

    expect(missing.status).toBe(404);
    expect(foreign.status).toBe(404);
    expect((foreign.body as { error?: unknown }).error).toEqual((missing.body as { error?: unknown }).error);
  });

  it('does not list sessions that were ended by logout', async () => {
    const phone = await openBrowser(account, 'phone');
    expect((await listSessions(account.client)).body.sessions).toHaveLength(3);

    expect((await phone.post('/api/auth/logout')).status).toBe(204);
    const ids = (await listSessions(account.client)).body.sessions.map((s) => s.id);
    expect(ids).toHaveLength(2);
    expect(ids).not.toContain(sidOf(phone));
  });

  it('answers 401 without an access token', async () => {
    expect((await laptop.get('/api/auth/sessions', { token: null })).status).toBe(401);
    expect((await laptop.delete(`/api/auth/sessions/${sidOf(laptop)}`, { token: null })).status).toBe(401);
  });
});
