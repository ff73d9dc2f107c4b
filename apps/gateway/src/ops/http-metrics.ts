import { recordHttpRequest } from '@vault/server-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * http_requests_total and http_request_duration_seconds of every answer (docs/metrics.md), by the
 * route's pattern as Fastify matched it (`/api/notes/:id`, the SPA's `/*`), never the URL: ids,
 * signed-URL queries and made-up paths must not become series. A request no route matched is
 * `unmatched`. Rate-limited answers show as status 429, failures as 5xx.
 */
export function registerHttpMetrics(fastify: FastifyInstance): void {
  // A callback hook, not an async one: no promise per request on the hot path.
  fastify.addHook('onResponse', (request, reply, done) => {
    recordHttpRequest({
      method: request.method,
      route: request.is404 ? undefined : request.routeOptions.url,
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
    done();
  });
  // Metrics are served on the internal ops listener only (ops-server.ts). Without this route the
  // SPA's catch-all would answer the public /metrics with index.html; a scraper pointed at the
  // public port gets a plain 404 instead.
  const notFound = (_request: FastifyRequest, reply: FastifyReply) => reply.callNotFound();
  fastify.route({ method: ['GET', 'HEAD'], url: '/metrics', handler: notFound });
}
