import { connect } from 'node:net';
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
      // The gateway refuses on Content-Length alone and closes early. Uploading megabytes would
      // race that close (EPIPE), so this sends only the headers of a 5 MiB body over a raw
      // socket and reads the answer: deterministic, and exactly what the limit is about.
      const url = new URL(api.baseUrl);
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname);
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('end', () => resolve(text));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
        socket.write(
          'POST /api/auth/login HTTP/1.1\r\n' +
            `Host: ${url.host}\r\n` +
            'Content-Type: application/json\r\n' +
            `Content-Length: ${5 * 1024 * 1024}\r\n` +
            'Connection: close\r\n\r\n',
        );
      });
      expect(raw).toMatch(/^HTTP\/1\.1 413 /);
      expect(raw).toContain('PAYLOAD_TOO_LARGE');
    });
  });
});
