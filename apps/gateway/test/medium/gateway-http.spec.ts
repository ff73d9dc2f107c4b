import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { SessionCache } from '../../src/auth/session-cache';
import { REDIS } from '../../src/redis/redis.token';
import {
  clientAddress,
  startGateway,
  type GatewayHarness,
  type InjectOptions,
} from './support/gateway-harness';

const CSP =
  "default-src 'self';script-src 'self' 'wasm-unsafe-eval';style-src 'self';img-src 'self' data: blob:;" +
  "media-src blob:;font-src 'self';connect-src 'self';worker-src 'self' blob:;frame-src blob:;" +
  "object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'";

/** Resolves once `check` holds (every 10 ms, up to 2 s). */
async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 2000) throw new Error(`${what}: not within 2 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const LOGIN_BODY = { identifier: 'alice', authKey: 'a'.repeat(64) };

describe('gateway HTTP edge (real Redis, auth RPC port with nothing listening)', () => {
  let gw: GatewayHarness;

  beforeAll(async () => {
    gw = await startGateway({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '5', RATE_LIMIT_API_PER_MINUTE: '8' } });
  });
  afterAll(async () => {
    await gw.close();
  });

  const inject = (opts: InjectOptions) => gw.inject(opts);

  describe('security headers', () => {
    it.each(['/api/health/live', '/', '/api/nope'])(
      'sends the strict CSP and hardening headers on %s',
      async (url) => {
        const res = await inject({ method: 'GET', url });
        expect(res.headers['content-security-policy']).toBe(CSP);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['referrer-policy']).toBe('no-referrer');
        expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
        expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
        expect(res.headers['x-frame-options']).toBe('DENY');
        expect(res.headers['permissions-policy']).toMatch(/camera=\(\).*microphone=\(\).*geolocation=\(\)/);
      },
    );

    it('answers Cache-Control: no-store on every /api answer, errors included, but not on the web app', async () => {
      for (const url of [
        '/api/health/live',
        '/api/health',
        '/api/nope',
        '/api/auth/me',
        '/api/docs/openapi.json',
      ]) {
        expect((await inject({ method: 'GET', url })).headers['cache-control']).toBe('no-store');
      }
      expect((await inject({ method: 'GET', url: '/' })).headers['cache-control']).toBe('no-cache');
    });

    it('relaxes the CSP for the docs page only (inline styles, never inline scripts)', async () => {
      const res = await inject({ method: 'GET', url: '/api/docs' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      expect(csp).toMatch(/script-src 'self';/);
      expect(csp).not.toContain('unsafe-eval');
    });
  });

  describe('CORS', () => {
    it('is off by default: no Access-Control headers, preflight not answered', async () => {
      const get = await inject({
        method: 'GET',
        url: '/api/health/live',
        headers: { origin: 'https://evil.example' },
      });
      expect(get.headers['access-control-allow-origin']).toBeUndefined();
      expect(get.headers['access-control-allow-credentials']).toBeUndefined();
      const preflight = await inject({
        method: 'OPTIONS',
        url: '/api/auth/login',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.statusCode).toBe(404);
    });
  });

  describe('request ids', () => {
    it('echoes a safe incoming x-request-id and puts it in error bodies', async () => {
      const res = await inject({
        method: 'GET',
        url: '/api/nope',
        headers: { 'x-request-id': 'trace-abc.123' },
      });
      expect(res.headers['x-request-id']).toBe('trace-abc.123');
      expect(res.json()).toMatchObject({ requestId: 'trace-abc.123' });
    });

    it('replaces an unsafe x-request-id with a UUID', async () => {
      const res = await inject({
        method: 'GET',
        url: '/api/health/live',
        headers: { 'x-request-id': '<script>x' },
      });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('bodies', () => {
    const JSON_TYPE = { 'content-type': 'application/json' };
    it.each([
      ['malformed JSON', JSON_TYPE, '{"identifier": "alice", "authKey": ', 'Malformed JSON in request body'],
      [
        'a body that is not JSON',
        { 'content-type': 'text/plain' },
        'identifier=alice',
        'Request body must be JSON (Content-Type: application/json)',
      ],
      ['a JSON value that is not an object', {}, [1, 2], 'Request body must be a JSON object'],
      ['an unknown field', {}, { ...LOGIN_BODY, role: 'admin' }, 'Unknown field: role'],
      [
        'the first failing rule (its message)',
        {},
        { identifier: '', authKey: 'x' },
        'Please fill in all fields',
      ],
    ])('answers 400 to %s, with a clear message', async (_case, headers, payload, error) => {
      const res = await inject({
        method: 'POST',
        url: '/api/auth/login',
        headers,
        payload: payload as never,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error, code: 'VALIDATION_FAILED' });
    });

    it('answers 400 to a __proto__ key (prototype poisoning)', async () => {
      const res = await inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"identifier":"a","authKey":"b","__proto__":{"admin":true}}',
      });
      expect(res.statusCode).toBe(400);
    });

    it('answers 413 to a body over BODY_LIMIT_BYTES', async () => {
      const res = await inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { username: 'x'.repeat(1_200_000) },
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ error: 'Request body too large', code: 'PAYLOAD_TOO_LARGE' });
    });
  });

  describe('authentication', () => {
    it('answers 401 UNAUTHENTICATED without a token', async () => {
      const res = await inject({ method: 'GET', url: '/api/auth/me' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED', error: 'Authentication required' });
    });

    it('answers 401 UNAUTHENTICATED to a garbled or forged token', async () => {
      const { token } = await gw.token();
      const [h, p] = token.split('.');
      for (const bad of ['garbage', `${h}.${p}.`, `${h}.${p}.AAAA`, `${token}x`]) {
        const res = await inject({
          method: 'GET',
          url: '/api/auth/sessions',
          headers: { authorization: `Bearer ${bad}` },
        });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
      }
    });

    it('lets a valid token of a live session through (then 503: auth is not running), and answers 401 SESSION_REVOKED once the session key is gone', async () => {
      const { token, caller } = await gw.signedIn();
      const headers = { authorization: `Bearer ${token}` };

      const live = await inject({ method: 'GET', url: '/api/auth/me', headers });
      expect(live.statusCode).toBe(503);
      expect(live.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });

      await gw.endSession(caller.sessionId);
      const revoked = await inject({ method: 'GET', url: '/api/auth/me', headers });
      expect(revoked.statusCode).toBe(401);
      expect(revoked.json()).toMatchObject({ code: 'SESSION_REVOKED' });
    });

    it('answers 401 SESSION_REVOKED to a valid token whose session never existed', async () => {
      const { token } = await gw.token();
      const res = await inject({
        method: 'POST',
        url: '/api/auth/change-password',
        headers: { authorization: `Bearer ${token}` },
        payload: {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'SESSION_REVOKED' });
    });

    it('answers 401 to refresh without the refresh cookie', async () => {
      const res = await inject({ method: 'POST', url: '/api/auth/refresh' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    });

    it('validates the session id of DELETE /api/auth/sessions/:id', async () => {
      const { token } = await gw.signedIn();
      const res = await inject({
        method: 'DELETE',
        url: '/api/auth/sessions/not-a-uuid',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'Invalid id', code: 'VALIDATION_FAILED' });
    });

    it('clears the refresh cookie on logout even without a bearer token', async () => {
      const res = await inject({ method: 'POST', url: '/api/auth/logout', cookies: { vault_refresh: 'r1' } });
      // auth is not running, so the call itself fails; the browser's cookie is gone all the same.
      expect(res.statusCode).toBe(503);
      expect(String(res.headers['set-cookie'])).toMatch(/^vault_refresh=;.*Path=\/api\/auth/);
    });
  });

  describe('rate limits', () => {
    it('answers 429 with retryAfter and Retry-After once an IP passes RATE_LIMIT_AUTH_PER_MINUTE', async () => {
      const ip = clientAddress();
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await gw.app.inject({
          method: 'POST',
          url: '/api/auth/prelogin',
          remoteAddress: ip,
          payload: { identifier: 'alice' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([503, 503, 503, 503, 503]);
      const limited = await gw.app.inject({
        method: 'POST',
        url: '/api/auth/prelogin',
        remoteAddress: ip,
        payload: { identifier: 'alice' },
      });
      expect(limited.statusCode).toBe(429);
      const body = limited.json<{ retryAfter: number }>();
      expect(body).toMatchObject({
        error: 'Too many requests. Please try again later.',
        code: 'RATE_LIMITED',
      });
      expect(body.retryAfter).toBeGreaterThan(0);
      expect(body.retryAfter).toBeLessThanOrEqual(60);
      expect(limited.headers['retry-after']).toBe(String(body.retryAfter));

      const other = await gw.app.inject({
        method: 'POST',
        url: '/api/auth/prelogin',
        remoteAddress: clientAddress(),
        payload: { identifier: 'alice' },
      });
      expect(other.statusCode).toBe(503);
    });

    it('counts a signed-in caller per user, whatever the IP', async () => {
      const { token } = await gw.signedIn();
      const statuses: number[] = [];
      for (let i = 0; i < 9; i++) {
        const res = await inject({
          method: 'GET',
          url: '/api/auth/sessions',
          headers: { authorization: `Bearer ${token}` },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, 8).every((s) => s === 503)).toBe(true);
      expect(statuses[8]).toBe(429);
    });

    it('counts a request of a session not yet remembered with its session check in one Redis round trip, the next ones with none (their hits reach Redis in one batch), and nothing for an ended session', async () => {
      const { token, caller } = await gw.signedIn();
      const headers = { authorization: `Bearer ${token}` };
      const counter = `rl:gw-api:user:${caller.userId}`;
      const sent = jest.spyOn(gw.app.get<Redis>(REDIS), 'sendCommand');
      for (let i = 0; i < 3; i++) {
        expect((await inject({ method: 'GET', url: '/api/auth/sessions', headers })).statusCode).toBe(503);
      }
      // The first: the session check and the account's hit in one script; then the remembered session.
      expect(sent).toHaveBeenCalledTimes(1);
      await waitFor(async () => (await gw.redis.client.get(counter)) === '3', 'the batch of two hits');
      expect(sent).toHaveBeenCalledTimes(2);
      sent.mockRestore();
      await gw.endSession(caller.sessionId);
      for (let i = 0; i < 3; i++) {
        const res = await inject({ method: 'GET', url: '/api/auth/sessions', headers });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ code: 'SESSION_REVOKED' });
      }
      // A token whose session ended cannot spend its account's requests.
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await gw.redis.client.get(counter)).toBe('3');
    });

    it('refuses a remembered session as soon as Redis reports it ended, from any client (under 100 ms)', async () => {
      const { token, caller } = await gw.signedIn();
      const headers = { authorization: `Bearer ${token}` };
      expect((await inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode).toBe(503);
      expect(gw.app.get(SessionCache).has(caller.sessionId)).toBe(true);
      expect(await gw.endSession(caller.sessionId)).toBeLessThan(100);
      const res = await inject({ method: 'GET', url: '/api/auth/me', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'SESSION_REVOKED' });
    });

    it('refuses it on every replica: each gateway hears of the deletion', async () => {
      const other = await gw.replica();
      try {
        const { token, caller } = await gw.signedIn();
        const headers = { authorization: `Bearer ${token}` };
        const onOther = () =>
          other.inject({ method: 'GET', url: '/api/auth/me', headers, remoteAddress: clientAddress() });
        expect((await inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode).toBe(503);
        expect((await onOther()).statusCode).toBe(503);
        const otherCache = other.get(SessionCache);
        expect(otherCache.has(caller.sessionId)).toBe(true);
        await gw.endSession(caller.sessionId);
        await waitFor(async () => !otherCache.has(caller.sessionId), 'the other replica forgetting it');
        const res = await onOther();
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ code: 'SESSION_REVOKED' });
      } finally {
        await other.close();
      }
    });

    it('lets exactly the limit through when one account sends many requests at once', async () => {
      const { token } = await gw.signedIn();
      const headers = { authorization: `Bearer ${token}` };
      // The first makes the session remembered and learns the window; the rest arrive together.
      const first = await inject({ method: 'GET', url: '/api/auth/sessions', headers });
      const rest = await Promise.all(
        Array.from({ length: 30 }, () => inject({ method: 'GET', url: '/api/auth/sessions', headers })),
      );
      const statuses = [first, ...rest].map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 503)).toHaveLength(8);
      expect(statuses.filter((s) => s === 429)).toHaveLength(23);
    });

    it('asks Redis on every request with SESSION_CACHE=false', async () => {
      const plain = await startGateway({ env: { SESSION_CACHE: 'false', RATE_LIMIT_API_PER_MINUTE: '8' } });
      try {
        const { token, caller } = await plain.signedIn();
        const headers = { authorization: `Bearer ${token}` };
        const sent = jest.spyOn(plain.app.get<Redis>(REDIS), 'sendCommand');
        for (let i = 0; i < 3; i++) {
          expect((await plain.inject({ method: 'GET', url: '/api/auth/sessions', headers })).statusCode).toBe(
            503,
          );
        }
        expect(sent).toHaveBeenCalledTimes(3);
        sent.mockRestore();
        expect(await plain.redis.client.get(`rl:gw-api:user:${caller.userId}`)).toBe('3');
        expect(plain.app.get(SessionCache).size).toBe(0);
        // Ended in Redis: refused on the very next request, no report awaited.
        await plain.redis.client.del(`sess:${caller.sessionId}`);
        expect((await plain.inject({ method: 'GET', url: '/api/auth/sessions', headers })).statusCode).toBe(
          401,
        );
      } finally {
        await plain.close();
      }
    });

    it('never limits the liveness probe', async () => {
      const ip = clientAddress();
      for (let i = 0; i < 12; i++) {
        expect(
          (await gw.app.inject({ method: 'GET', url: '/api/health/live', remoteAddress: ip })).statusCode,
        ).toBe(200);
      }
    });
  });

  describe('health', () => {
    it('answers 503 degraded naming auth, notes and files down when those services do not answer', async () => {
      const res = await inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'degraded',
        services: { gateway: 'ok', redis: 'ok', auth: 'down', notes: 'down', files: 'down' },
      });
    });

    it('answers 503 on the public blob route when the files service’s HTTP listener does not answer', async () => {
      const url = `/api/files/blob/${randomUUID()}/${randomUUID()}?op=get&exp=9999999999&sig=${'a'.repeat(64)}`;
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await inject({ method, url });
        expect(res.statusCode).toBe(503);
        expect(res.headers['cache-control']).toBe('no-store');
        if (method === 'GET') {
          expect(res.json()).toMatchObject({ error: 'Service unavailable', code: 'SERVICE_UNAVAILABLE' });
        }
      }
    });

    it('answers GET /api/about without a session: the build, no-store, and a Date for the clock check', async () => {
      const res = await inject({ method: 'GET', url: '/api/about' });
      expect(res.statusCode).toBe(200);
      const body = res.json<Record<string, unknown>>();
      expect(body).toMatchObject({
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        builtAt: null,
        environment: expect.stringMatching(/^(development|production|test)$/),
      });
      // The checkout's HEAD when the tests run from one, else null.
      expect(String(body['commit'])).toMatch(/^([0-9a-f]{7,64}|null)$/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(Number.isFinite(Date.parse(String(res.headers['date'])))).toBe(true);
    });

    it('answers 200 on /api/health/live', async () => {
      const res = await inject({ method: 'GET', url: '/api/health/live' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
    });
  });

  describe('routing', () => {
    it.each([
      ['GET', '/api/x'],
      ['POST', '/api/x'],
      ['GET', '/api'],
      ['GET', '/api/auth/unknown'],
      ['GET', '/api/auth/login'],
      ['GET', '/api/docs/nothing-here.js'],
    ])('answers %s %s with 404 JSON, never the web app', async (method, url) => {
      const res = await inject({ method: method as 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toMatchObject({ error: 'Not found', code: 'NOT_FOUND' });
    });

    it('serves the placeholder page at / when no web app is built', async () => {
      const res = await inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('Vault is running');
      expect(res.body).not.toMatch(/<script|<style|style=/);
    });

    it('falls back to index.html for client routes such as /vault (GET and HEAD)', async () => {
      const res = await inject({ method: 'GET', url: '/vault?tab=notes' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('Vault is running');
      expect((await inject({ method: 'HEAD', url: '/settings/security' })).statusCode).toBe(200);
    });

    it('serves the web runtime config at /env-config.js: JavaScript, never cached, strict CSP', async () => {
      const res = await inject({ method: 'GET', url: '/env-config.js' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/javascript/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-security-policy']).toBe(CSP);
      expect(res.body).toBe(
        'window.__VAULT_CONFIG__ = Object.freeze({"inactivityTimeoutMs":600000,"inactivityWarningMs":60000});\n',
      );
      expect((await inject({ method: 'HEAD', url: '/env-config.js' })).statusCode).toBe(200);
    });

    it('serves the placeholder stylesheet and answers 404 for a missing asset or a POST', async () => {
      const css = await inject({ method: 'GET', url: '/placeholder.css' });
      expect(css.statusCode).toBe(200);
      expect(css.headers['content-type']).toMatch(/text\/css/);
      expect((await inject({ method: 'GET', url: '/assets/missing-123.js' })).statusCode).toBe(404);
      expect((await inject({ method: 'POST', url: '/vault' })).statusCode).toBe(404);
      expect((await inject({ method: 'GET', url: '/../package.json' })).statusCode).toBe(404);
      expect((await inject({ method: 'GET', url: '/%2e%2e/package.json' })).statusCode).toBe(404);
    });
  });

  describe('OpenAPI', () => {
    it('serves /api/docs/openapi.json as valid JSON with the auth paths', async () => {
      const res = await inject({ method: 'GET', url: '/api/docs/openapi.json' });
      expect(res.statusCode).toBe(200);
      const doc = JSON.parse(res.body) as { openapi: string; paths: Record<string, unknown> };
      expect(doc.openapi).toBe('3.1.0');
      for (const path of [
        '/api/auth/prelogin',
        '/api/auth/signup',
        '/api/auth/login',
        '/api/auth/refresh',
        '/api/auth/logout',
        '/api/auth/me',
        '/api/auth/change-password',
        '/api/auth/sessions',
        '/api/auth/sessions/{id}',
        '/api/health',
      ]) {
        expect(doc.paths).toHaveProperty([path]);
      }
    });

    it('serves the Swagger UI assets', async () => {
      const res = await inject({ method: 'GET', url: '/api/docs/swagger-ui-init.js' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('/api/auth/login');
    });
  });

  describe('logs', () => {
    it('write one line per request with method, url, status and request id, and never a body, cookie or token', async () => {
      const marker = `marker-${randomUUID()}`;
      const { token } = await gw.token();
      await inject({
        method: 'POST',
        url: `/api/auth/login?token=${marker}q`,
        headers: { authorization: `Bearer ${token}`, 'x-request-id': 'log-check-1' },
        cookies: { vault_refresh: `${marker}c` },
        payload: { identifier: `${marker}i`, authKey: `${marker}k` },
      });
      const line = gw.logs
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.requestId === 'log-check-1');
      expect(line).toMatchObject({ method: 'POST', url: '/api/auth/login?token=***', status: 400 });
      expect(typeof line?.responseTimeMs).toBe('number');
      const all = gw.logs.join('\n');
      expect(all).not.toContain(marker);
      expect(all).not.toContain(token);
    });
  });
});

describe('gateway over a real socket', () => {
  it('listens on a port and answers with a request id', async () => {
    const gw = await startGateway();
    try {
      await gw.app.listen({ port: 0, host: '127.0.0.1' });
      const res = await fetch(`${await gw.app.getUrl()}/api/health/live`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(await res.json()).toEqual({ status: 'ok' });
    } finally {
      await gw.close();
    }
  });
});
