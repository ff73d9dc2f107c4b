import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** An incoming x-request-id is kept only when it is a short, safe token; else a new UUID. */
export function requestIdFor(raw: IncomingMessage): string {
  const incoming = raw.headers['x-request-id'];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Query parameters whose values may be logged; any other value is replaced. */
const LOGGABLE_QUERY_KEYS = new Set(['limit', 'cursor', 'offset', 'width', 'height', 'quality', 'format']);

/** The URL as logged: path plus query keys, values masked unless known to be harmless. */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  const parts: string[] = [];
  for (const [key, value] of params) {
    const safeKey = key.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64);
    parts.push(
      LOGGABLE_QUERY_KEYS.has(key)
        ? `${safeKey}=${encodeURIComponent(value.slice(0, 64))}`
        : `${safeKey}=***`,
    );
  }
  return `${url.slice(0, q)}?${parts.join('&')}`;
}

/**
 * Request ids and the access log. One line per request: method, URL (query values masked),
 * status, time, request id. Never a body, a cookie or an Authorization header.
 */
export function registerRequestLogging(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  fastify.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: loggableUrl(request.url),
        status: reply.statusCode,
        responseTimeMs: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    );
  });
}
