import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every answer (API, web app, docs). The CSP allows nothing but this
 * origin: no inline script or style, no eval, no third-party hosts. `blob:` workers and
 * images are what the web app's crypto Worker and file previews need. `'wasm-unsafe-eval'`
 * lets the Worker compile Argon2id's WebAssembly (hash-wasm): without it Chromium refuses
 * `WebAssembly.compile` under `script-src 'self'`. It allows WebAssembly only, never eval.
 */
export const CSP_DIRECTIVES: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/**
 * Swagger UI's page carries inline <style> blocks and sets style attributes, so the docs
 * (and only the docs) may use inline styles. Scripts stay 'self' only.
 */
export const DOCS_CSP_DIRECTIVES: Record<string, string[]> = {
  ...CSP_DIRECTIVES,
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
};

export const DOCS_PATH = '/api/docs';

export function cspString(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

export const HELMET_OPTIONS: FastifyHelmetOptions = {
  global: true,
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: { policy: 'same-origin' },
  crossOriginResourcePolicy: { policy: 'same-origin' },
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
  xFrameOptions: { action: 'deny' },
  xContentTypeOptions: true,
};

const DOCS_CSP = cspString(DOCS_CSP_DIRECTIVES);

export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

function isDocsPath(url: string): boolean {
  return url === DOCS_PATH || url.startsWith(`${DOCS_PATH}/`) || url.startsWith(`${DOCS_PATH}?`);
}

export async function registerSecurityHeaders(fastify: FastifyInstance): Promise<void> {
  await fastify.register(helmet, HELMET_OPTIONS);
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    if (isDocsPath(request.url)) reply.header('content-security-policy', DOCS_CSP);
  });
  // Last word on caching: API answers (errors and docs included) are never stored.
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (isApiPath(request.url)) reply.header('cache-control', 'no-store');
    return payload;
  });
}
