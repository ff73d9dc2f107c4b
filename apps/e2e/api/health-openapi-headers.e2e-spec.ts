import { request as httpRequest } from 'node:http';
import { signUp, type TestAccount } from '../support/accounts';
import { ApiClient, type ApiResponse } from '../support/http';

const FOREIGN_ORIGIN = 'https://evil.example';

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
}

function expectSecurityHeaders(res: ApiResponse<unknown>): void {
  const h = res.headers;
  expect({
    csp: h.get('content-security-policy'),
    nosniff: h.get('x-content-type-options'),
    cacheControl: h.get('cache-control'),
  }).toEqual({
    csp: expect.stringMatching(/default-src/),
    nosniff: 'nosniff',
    cacheControl: expect.stringMatching(/no-store/),
  });
}

describe('the gateway platform', () => {
  const api = new ApiClient('platform');

  describe('GET /api/health', () => {
    it("answers 200 {status: 'ok'} naming the services it checked, the auth service among them", async () => {
      const res = await api.get<{ status: string; services: Record<string, unknown> }>('/api/health');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('ok');
      expect(Object.keys(res.body.services)).toContain('auth');
    });
  });

  describe('GET /api/docs/openapi.json', () => {
    const authOperations: [string, string][] = [
      ['/api/auth/prelogin', 'post'],
      ['/api/auth/signup', 'post'],
      ['/api/auth/login', 'post'],
      ['/api/auth/refresh', 'post'],
      ['/api/auth/logout', 'post'],
      ['/api/auth/me', 'get'],
      ['/api/auth/change-password', 'post'],
      ['/api/auth/sessions', 'get'],
      ['/api/auth/sessions/{id}', 'delete'],
    ];

    it('serves an OpenAPI 3 document describing every auth operation', async () => {
      const res = await api.get<OpenApiDocument>('/api/docs/openapi.json');
      expect(res.status).toBe(200);
      expect(res.body.openapi).toMatch(/^3\./);
      const described = authOperations.filter(
        ([path, method]) => res.body.paths[path]?.[method] !== undefined,
      );
      expect(described).toEqual(authOperations);
    });
  });

  describe('security headers', () => {
    let account: TestAccount;

    beforeAll(async () => {
      account = await signUp();
    });

    it('sends a CSP, nosniff and Cache-Control no-store on API answers', async () => {
      expectSecurityHeaders(await api.get('/api/health'));
      expectSecurityHeaders(await account.client.get('/api/auth/me'));
      expectSecurityHeaders(
        await api.post('/api/auth/prelogin', { identifier: account.identity.username }, { token: null }),
      );
    });

    it('sends them on error answers too', async () => {
      const unauthenticated = await api.get('/api/auth/me', { token: null });
      expect(unauthenticated.status).toBe(401);
      expectSecurityHeaders(unauthenticated);

      const unknownRoute = await api.get('/api/no-such-route');
      expect(unknownRoute.status).toBe(404);
      expect(typeof (unknownRoute.body as { error?: unknown }).error).toBe('string');
      expectSecurityHeaders(unknownRoute);
    });

    it('grants no cross-origin access: no Access-Control-Allow-Origin, also not for a preflight', async () => {
      const simple = await account.client.get('/api/auth/me', { headers: { origin: FOREIGN_ORIGIN } });
      expect(simple.status).toBe(200);
      expect(simple.headers.get('access-control-allow-origin')).toBeNull();
      expect(simple.headers.get('access-control-allow-credentials')).toBeNull();

      const preflight = await api.request('OPTIONS', '/api/auth/login', {
        token: null,
        headers: {
          origin: FOREIGN_ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
    });
  });

  describe('request bodies', () => {
    it('answers malformed JSON with 400', async () => {
      const res = await api.request('POST', '/api/auth/login', {
        token: null,
        body: '{"identifier": ',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(typeof (res.body as { error?: unknown }).error).toBe('string');
    });

    it('answers a body over the limit with 413', async () => {
      // The gateway refuses on Content-Length and may close before the upload ends; fetch then
      // fails with EPIPE before reading the answer, so read it with node:http, which delivers
      // the response even when the rest of the body could not be written.
      const body = JSON.stringify({ identifier: 'x'.repeat(5 * 1024 * 1024), authKey: 'ab'.repeat(32) });
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          `${api.baseUrl}/api/auth/login`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
            res.on('error', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', (error: NodeJS.ErrnoException) => {
          // EPIPE/ECONNRESET after the answer arrived is the server closing early, not a failure.
          if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
        });
        req.end(body);
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    });
  });
});
