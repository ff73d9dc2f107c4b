import Fastify from 'fastify';
import { cspDirectives, cspString, docsCspDirectives, registerSecurityHeaders } from './security-headers';

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
