import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Security headers on every answer (API, web app, docs). The CSP allows this origin and nothing
 * else by default: no inline script or style, no eval, no third-party hosts.
 *
 * - `'wasm-unsafe-eval'` lets the crypto Worker compile Argon2id's WebAssembly (hash-wasm; pdf.js
 *   decoders too): without it Chromium refuses `WebAssembly.compile` under `script-src 'self'`. It
 *   allows WebAssembly only, never eval.
 * - `blob:` is where decrypted files live in the browser, and only there: images (`img-src`),
 *   video and audio (`media-src`), the browser's own PDF viewer in an iframe of the object URL
 *   (`frame-src`; checked in Chromium: the viewer loads with `object-src 'none'` kept), and
 *   Workers. No same-origin media or frames are needed, so those two directives name `blob:` only.
 * - `connect-src` adds the storage origins the browser reaches directly when configured: the S3
 *   endpoint of presigned PUT/GET URLs and Cloudinary's upload API (`storageOrigins` in the config).
 */
export interface CspOptions {
  /** Origins (`scheme://host[:port]`) the web app may fetch from besides this one. */
  connectOrigins?: readonly string[];
}

export function cspDirectives(options: CspOptions = {}): Record<string, string[]> {
  const extra = [...new Set(options.connectOrigins ?? [])];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", "'wasm-unsafe-eval'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'media-src': ['blob:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'", ...extra],
    'worker-src': ["'self'", 'blob:'],
    'frame-src': ['blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/** The CSP of a deployment with no direct storage origins (local disk, or S3 behind the gateway). */
export const CSP_DIRECTIVES: Record<string, string[]> = cspDirectives();

/**
 * Swagger UI's page carries inline <style> blocks and sets style attributes, so the docs
 * (and only the docs) may use inline styles. Scripts stay 'self' only; the docs fetch nothing
 * but this origin and show no media or frames.
 */
export function docsCspDirectives(): Record<string, string[]> {
  return {
    ...cspDirectives(),
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:'],
    'media-src': ["'none'"],
    'frame-src': ["'none'"],
  };
}

export const DOCS_CSP_DIRECTIVES: Record<string, string[]> = docsCspDirectives();

export const DOCS_PATH = '/api/docs';

export function cspString(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

export function helmetOptions(csp: CspOptions = {}): HelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(csp) },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    xFrameOptions: { action: 'deny' },
    xContentTypeOptions: true,
  };
}

/**
 * The headers helmet sets for these options, taken once at start: with no nonces, none of helmet's
 * values depends on the request, and building helmet's middleware for every request (as
 * @fastify/helmet did: the CSP parsed and checked each time) was about 7 % of the gateway's CPU
 * per `/api/auth/me` (bench/README.md). Lower-case names, as Fastify keeps them.
 */
export function securityHeaders(csp: CspOptions = {}): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(helmetOptions(csp))(
    {} as IncomingMessage,
    response as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  headers['permissions-policy'] = PERMISSIONS_POLICY;
  return Object.freeze(headers);
}

const DOCS_CSP = cspString(DOCS_CSP_DIRECTIVES);

export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

function isDocsPath(url: string): boolean {
  return url === DOCS_PATH || url.startsWith(`${DOCS_PATH}/`) || url.startsWith(`${DOCS_PATH}?`);
}

export async function registerSecurityHeaders(fastify: FastifyInstance, csp: CspOptions = {}): Promise<void> {
  const headers = securityHeaders(csp);
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    if (isDocsPath(request.url)) reply.header('content-security-policy', DOCS_CSP);
    done();
  });
  // Last word on caching: API answers (errors and docs included) are never stored.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (isApiPath(request.url)) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
