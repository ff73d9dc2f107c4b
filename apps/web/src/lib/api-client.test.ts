import { describe, expect, it, vi } from 'vitest';
import { FakeServer, fakeJwt, json } from '../testing/fake-server';
import { API_MESSAGES, ApiClient, ApiError, REFRESH_COOLDOWN_MS, isCredentialPath } from './api-client';

function setup(options: { token?: string | null; now?: () => number } = {}) {
  const server = new FakeServer();
  let token: string | null = options.token === undefined ? fakeJwt('old') : options.token;
  const failures: ApiError[] = [];
  const client = new ApiClient({
    fetch: server.fetch as typeof fetch,
    ...(options.now ? { now: options.now } : {}),
    hooks: {
      getAccessToken: () => token,
      setAccessToken: (t) => {
        token = t;
      },
      onAuthFailure: (e) => {
        failures.push(e);
        token = null;
      },
    },
  });
  return { server, client, failures, token: () => token };
}

/**
 * GET /notes fails with `status` every time while the refresh succeeds: the call is retried once
 * after the refresh, then rejects with `message`.
 */
async function expectNotesRetriedOnce(status: number, error: string, message: string) {
  const context = setup();
  context.server
    .on('GET /api/notes', () => json(status, { error }))
    .on('POST /api/auth/refresh', () => json(200, { access: fakeJwt('new') }));
  await expect(context.client.get('/notes')).rejects.toMatchObject({ status, message });
  expect(context.server.calls('GET /api/notes')).toHaveLength(2);
  return context;
}

/** A promise the test settles by hand, to hold a refresh in flight. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('ApiClient', () => {
  it('sends JSON with credentials included and the bearer token', async () => {
    const { server, client } = setup({ token: fakeJwt('tok') });
    server.on('POST /api/things', () => json(201, { ok: true }));
    await expect(client.post('/things', { a: 1 })).resolves.toEqual({ ok: true });
    const [req] = server.calls('POST /api/things');
    expect(req?.body).toEqual({ a: 1 });
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers['authorization']).toBe(`Bearer ${fakeJwt('tok')}`);
  });

  it('includes credentials (the refresh cookie) on every call', async () => {
    const fetch = vi.fn(async () => json(200, {}));
    const client = new ApiClient({ fetch: fetch as unknown as typeof globalThis.fetch });
    await client.get('/x');
    expect(fetch).toHaveBeenCalledWith('/api/x', expect.objectContaining({ credentials: 'include' }));
  });

  it("carries the status and the answer's error text", async () => {
    const { server, client } = setup({ token: null });
    server.on('POST /api/auth/login', () =>
      json(423, { error: 'Account Temporarily Locked', code: 'ACCOUNT_LOCKED', retryAfter: 598 }),
    );
    const error = await client.post('/auth/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 423,
      message: 'Account Temporarily Locked',
      code: 'ACCOUNT_LOCKED',
      retryAfter: 598,
    });
  });

  it("falls back to 'HTTP {status}' when the answer has no error text", async () => {
    const { server, client } = setup({ token: null });
    server.on('GET /api/teapot', () => new Response('<html>', { status: 502 }));
    await expect(client.get('/teapot')).rejects.toMatchObject({ status: 502, message: 'HTTP 502' });
  });

  it('takes retryAfter from the Retry-After header when the body has none', async () => {
    const { server, client } = setup({ token: null });
    server.on('GET /api/busy', () => json(429, { error: 'Too many requests' }, { 'retry-after': '42' }));
    await expect(client.get('/busy')).rejects.toMatchObject({ status: 429, retryAfter: 42 });
  });

  it("reports a network failure as status 0 'Network error'", async () => {
    const client = new ApiClient({
      fetch: (async () => {
        throw new TypeError('Failed to fetch');
      }) as typeof fetch,
    });
    await expect(client.get('/x')).rejects.toMatchObject({ status: 0, message: API_MESSAGES.network });
  });

  it('answers 204 with undefined', async () => {
    const { server, client } = setup();
    server.on('DELETE /api/notes/1', () => json(204));
    await expect(client.delete('/notes/1')).resolves.toBeUndefined();
  });

  describe('refresh and retry', () => {
    it('refreshes on 401 and retries once with the new token', async () => {
      const { server, client, token } = setup();
      let n = 0;
      server
        .on('GET /api/notes', (req) =>
          req.headers['authorization'] === `Bearer ${fakeJwt('new')}`
            ? json(200, { notes: [] })
            : json(401, { error: 'Authentication required' }),
        )
        .on('POST /api/auth/refresh', () => {
          n += 1;
          return json(200, { access: fakeJwt('new') });
        });
      await expect(client.get('/notes')).resolves.toEqual({ notes: [] });
      expect(n).toBe(1);
      expect(token()).toBe(fakeJwt('new'));
      expect(server.calls('GET /api/notes')).toHaveLength(2);
      // The refresh call carries no bearer token: the cookie is the credential.
      expect(server.calls('POST /api/auth/refresh')[0]?.headers['authorization']).toBeUndefined();
    });

    it('refreshes on 500 too, and retries once only', async () => {
      const { failures } = await expectNotesRetriedOnce(
        500,
        'Internal server error',
        'Internal server error',
      );
      expect(failures).toHaveLength(0);
    });

    it("ends the session with 'Authentication failed' when the retry is refused again", async () => {
      const { failures } = await expectNotesRetriedOnce(401, 'Session has ended', 'Authentication failed');
      expect(failures).toHaveLength(1);
    });

    it("ends the session when the refresh fails ('Token refresh failed: {status}')", async () => {
      const { server, client, failures } = setup();
      server
        .on('GET /api/notes', () => json(401, {}))
        .on('POST /api/auth/refresh', () => json(401, { error: 'Invalid refresh token' }));
      await expect(client.get('/notes')).rejects.toMatchObject({ message: API_MESSAGES.authFailed });
      expect(failures).toHaveLength(1);
      await expect(client.refreshAccessToken()).rejects.toMatchObject({
        message: API_MESSAGES.refreshCooldown,
      });
    });

    it("refuses a refresh answer without a token ('No access token received')", async () => {
      const { server, client } = setup();
      server.on('POST /api/auth/refresh', () => json(200, {}));
      await expect(client.refreshAccessToken()).rejects.toMatchObject({
        message: 'No access token received',
      });
    });

    it("names the refresh status ('Token refresh failed: 503')", async () => {
      const { server, client } = setup();
      server.on('POST /api/auth/refresh', () => json(503, { error: 'Service unavailable' }));
      await expect(client.refreshAccessToken()).rejects.toMatchObject({
        status: 503,
        message: 'Token refresh failed: 503',
      });
    });

    it('runs one refresh at a time: concurrent callers wait for the same one', async () => {
      const { server, client } = setup();
      const gate = deferred<Response>();
      let refreshes = 0;
      server
        .on('GET /api/a', (req) =>
          req.headers['authorization']?.includes(fakeJwt('new')) ? json(200, 'a') : json(401, {}),
        )
        .on('GET /api/b', (req) =>
          req.headers['authorization']?.includes(fakeJwt('new')) ? json(200, 'b') : json(401, {}),
        )
        .on('GET /api/c', (req) =>
          req.headers['authorization']?.includes(fakeJwt('new')) ? json(200, 'c') : json(401, {}),
        )
        .on('POST /api/auth/refresh', () => {
          refreshes += 1;
          return gate.promise;
        });
      const all = Promise.all([client.get('/a'), client.get('/b'), client.get('/c')]);
      await vi.waitFor(() => expect(refreshes).toBe(1));
      gate.resolve(json(200, { access: fakeJwt('new') }));
      await expect(all).resolves.toEqual(['a', 'b', 'c']);
      expect(refreshes).toBe(1);
    });

    it('holds a 30 s cooldown after a failed refresh, then tries again', async () => {
      let now = 1_000_000;
      const { server, client } = setup({ now: () => now });
      let refreshes = 0;
      server.on('POST /api/auth/refresh', () => {
        refreshes += 1;
        return refreshes === 1 ? json(401, {}) : json(200, { access: fakeJwt('later') });
      });
      await expect(client.refreshAccessToken()).rejects.toMatchObject({
        message: 'Token refresh failed: 401',
      });
      now += REFRESH_COOLDOWN_MS - 1;
      await expect(client.refreshAccessToken()).rejects.toMatchObject({
        message: 'Token refresh in cooldown period',
      });
      expect(refreshes).toBe(1);
      now += 1;
      await expect(client.refreshAccessToken()).resolves.toBe(fakeJwt('later'));
      expect(refreshes).toBe(2);
    });

    it('does not refresh for credential paths (their 401 means wrong credentials)', async () => {
      const { server, client, failures } = setup();
      server.on('POST /api/auth/login', () => json(401, { error: 'Invalid credentials' }));
      await expect(client.post('/auth/login', {})).rejects.toMatchObject({
        status: 401,
        message: 'Invalid credentials',
      });
      expect(server.calls('POST /api/auth/refresh')).toHaveLength(0);
      expect(failures).toHaveLength(0);
    });

    it('does not refresh a 401 whose code is INVALID_CREDENTIALS (e.g. a wrong current password)', async () => {
      const { server, client } = setup();
      server.on('POST /api/auth/change-password', () =>
        json(401, { error: 'Invalid credentials', code: 'INVALID_CREDENTIALS' }),
      );
      await expect(client.post('/auth/change-password', {})).rejects.toMatchObject({
        message: 'Invalid credentials',
      });
      expect(server.calls('POST /api/auth/refresh')).toHaveLength(0);
    });

    it('does not refresh a 401 whose code is INVALID_PASSWORD (a wrong password typed to open a file)', async () => {
      const { server, client, failures } = setup();
      server.on('POST /api/files/1/download-url', () =>
        json(401, { error: 'Invalid password', code: 'INVALID_PASSWORD' }),
      );
      await expect(client.post('/files/1/download-url', {})).rejects.toMatchObject({
        status: 401,
        message: 'Invalid password',
        code: 'INVALID_PASSWORD',
      });
      expect(server.calls('POST /api/auth/refresh')).toHaveLength(0);
      expect(failures).toHaveLength(0);
    });

    it.each(['INVALID_VERIFICATION_CODE', 'INVALID_BACKUP_CODE'])(
      'does not refresh a 401 whose code is %s (a wrong code typed in Settings)',
      async (code) => {
        const { server, client, failures } = setup();
        server.on('POST /api/auth/2fa/disable', () =>
          json(401, { error: 'Invalid verification code', code }),
        );
        await expect(client.post('/auth/2fa/disable', { code: '000000' })).rejects.toMatchObject({
          status: 401,
          code,
        });
        expect(server.calls('POST /api/auth/refresh')).toHaveLength(0);
        expect(failures).toHaveLength(0);
      },
    );

    it('refreshes a 401 whose code says the session expired (UNAUTHENTICATED)', async () => {
      const { server, client } = setup();
      let calls = 0;
      server.on('GET /api/notes', () =>
        ++calls === 1
          ? json(401, { error: 'Authentication required', code: 'UNAUTHENTICATED' })
          : json(200, []),
      );
      server.on('POST /api/auth/refresh', () => json(200, { access: fakeJwt('new') }));
      await expect(client.get('/notes')).resolves.toEqual([]);
      expect(server.calls('POST /api/auth/refresh')).toHaveLength(1);
    });

    it('does not refresh when no token is held', async () => {
      const { server, client } = setup({ token: null });
      server.on('GET /api/notes', () => json(401, { error: 'Authentication required' }));
      await expect(client.get('/notes')).rejects.toMatchObject({
        status: 401,
        message: 'Authentication required',
      });
      expect(server.calls('POST /api/auth/refresh')).toHaveLength(0);
    });

    it('uses a token another caller already refreshed instead of refreshing again', async () => {
      const { server, client } = setup();
      let refreshes = 0;
      let firstDone = false;
      server
        .on('GET /api/slow', async (req) => {
          if (req.headers['authorization']?.includes(fakeJwt('new'))) return json(200, 'slow');
          await vi.waitFor(() => expect(firstDone).toBe(true));
          return json(401, {});
        })
        .on('GET /api/fast', (req) =>
          req.headers['authorization']?.includes(fakeJwt('new')) ? json(200, 'fast') : json(401, {}),
        )
        .on('POST /api/auth/refresh', () => {
          refreshes += 1;
          return json(200, { access: fakeJwt('new') });
        });
      const slow = client.get('/slow');
      await expect(client.get('/fast')).resolves.toBe('fast');
      firstDone = true;
      await expect(slow).resolves.toBe('slow');
      expect(refreshes).toBe(1);
    });
  });

  it('knows the credential paths', () => {
    expect(isCredentialPath('/auth/login')).toBe(true);
    expect(isCredentialPath('/auth/refresh')).toBe(true);
    expect(isCredentialPath('/auth/me')).toBe(false);
    expect(isCredentialPath('/notes')).toBe(false);
  });
});
