import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import helmet from 'helmet';
import {
  DOCS_PATH,
  PERMISSIONS_POLICY,
  cspDirectives,
  cspString,
  docsCspDirectives,
  helmetOptions,
  registerSecurityHeaders,
} from './security-headers';

const STRICT =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; " +
  "media-src blob:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; frame-src blob:; " +
  "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

describe('cspDirectives', () => {
  it('allows this origin only, plus blob: where decrypted files are shown (images, media, the PDF frame, workers)', () => {
    expect(cspString(cspDirectives())).toBe(STRICT);
  });

  it('never allows inline script, eval, plugins or being framed', () => {
    const csp = cspDirectives();
    expect(csp['script-src']).not.toContain("'unsafe-inline'");
    expect(csp['script-src']).not.toContain("'unsafe-eval'");
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['frame-src']).toEqual(['blob:']);
  });

  it('adds the direct storage origins to connect-src only, once each', () => {
    const csp = cspDirectives({
      connectOrigins: [
        'https://s3.example.com:9000',
        'https://api.cloudinary.com',
        'https://s3.example.com:9000',
      ],
    });
    expect(csp['connect-src']).toEqual([
      "'self'",
      'https://s3.example.com:9000',
      'https://api.cloudinary.com',
    ]);
    const { 'connect-src': _connect, ...rest } = csp;
    const { 'connect-src': _strictConnect, ...strictRest } = cspDirectives();
    expect(rest).toEqual(strictRest);
  });

  it('relaxes only the styles for the docs, and gives them no media, frames or WebAssembly', () => {
    const docs = docsCspDirectives();
    expect(docs['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(docs['script-src']).toEqual(["'self'"]);
    expect(docs['media-src']).toEqual(["'none'"]);
    expect(docs['frame-src']).toEqual(["'none'"]);
    expect(docs['connect-src']).toEqual(["'self'"]);
  });
});

describe('registerSecurityHeaders', () => {
  it('sends the CSP with the configured storage origins and no-store on /api answers', async () => {
    const app = Fastify();
    await registerSecurityHeaders(app, { connectOrigins: ['https://s3.example.com'] });
    app.get('/api/files/blob/x', async () => 'bytes');
    app.get('/index.html', async () => 'page');
    await app.ready();

    const api = await app.inject({ method: 'GET', url: '/api/files/blob/x' });
    expect(api.headers['content-security-policy']).toContain("connect-src 'self' https://s3.example.com;");
    expect(api.headers['content-security-policy']).toContain('frame-src blob:;');
    expect(api.headers['cache-control']).toBe('no-store');
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    const page = await app.inject({ method: 'GET', url: '/index.html' });
    expect(page.headers['cache-control']).toBeUndefined();
    await app.close();
  });
});

describe('the security headers, computed once', () => {
  /** What helmet's own middleware sets on a real answer of a plain Node server. */
  async function helmetPerRequest(): Promise<Record<string, string>> {
    const middleware = helmet(helmetOptions());
    const server: Server = createServer((req, res) => middleware(req, res, () => res.end('ok')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const skip = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
      return Object.fromEntries([...res.headers].filter(([name]) => !skip.has(name)));
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  it("are exactly helmet's per-request headers, plus Permissions-Policy, on every answer", async () => {
    const app = Fastify();
    await registerSecurityHeaders(app);
    app.get('/api/x', async () => ({ ok: true }));
    app.get('/index.html', async () => 'page');
    await app.ready();
    const expected = { ...(await helmetPerRequest()), 'permissions-policy': PERMISSIONS_POLICY };
    expect(expected).toMatchObject({
      'content-security-policy': STRICT.replaceAll('; ', ';'),
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
    });
    for (const url of ['/api/x', '/index.html', '/api/nowhere']) {
      const answer = await app.inject({ method: 'GET', url });
      for (const [name, value] of Object.entries(expected))
        expect([url, name, answer.headers[name]]).toEqual([url, name, value]);
    }
    await app.close();
  });

  it('the docs get their own CSP, the rest unchanged', async () => {
    const app = Fastify();
    await registerSecurityHeaders(app);
    app.get(DOCS_PATH, async () => 'docs');
    await app.ready();
    const answer = await app.inject({ method: 'GET', url: DOCS_PATH });
    expect(answer.headers['content-security-policy']).toBe(cspString(docsCspDirectives()));
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['cache-control']).toBe('no-store');
    await app.close();
  });
});
