import type { IncomingMessage, ServerResponse } from 'node:http';
import { defineCounter, defineHistogram } from './registry';

/** Seconds: most API answers take milliseconds, uploads and downloads stream for longer. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Methods kept as they are; anything else is counted as OTHER (a client picks the method). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The route label of a request no route matched (404s of random paths must not add series). */
export const UNMATCHED_ROUTE = 'unmatched';

const httpRequests = () =>
  defineCounter('http_requests_total', 'HTTP requests answered, by route pattern and status', [
    'method',
    'route',
    'status',
  ]);
const httpDuration = () =>
  defineHistogram(
    'http_request_duration_seconds',
    'Time from a request to the end of its answer, by route pattern',
    ['method', 'route'],
    HTTP_BUCKETS,
  );

export interface HttpObservation {
  method: string;
  /**
   * The route's pattern (`/api/notes/:id`), never the URL: ids, signed-URL queries and paths
   * a client makes up would each become a series. Undefined: no route matched.
   */
  route: string | undefined;
  status: number;
  seconds: number;
}

/** Counts one answered request and its duration. */
export function recordHttpRequest({ method, route, status, seconds }: HttpObservation): void {
  const labels = { method: METHODS.has(method) ? method : 'OTHER', route: route ?? UNMATCHED_ROUTE };
  httpRequests().inc({ ...labels, status: String(status) });
  httpDuration().observe(labels, seconds);
}

/**
 * For a plain node:http listener (the files service's blob route): records the request when its
 * answer ends, or when the connection closes first (status 499, as nginx logs a client that left).
 */
export function trackHttpRequest(req: IncomingMessage, res: ServerResponse, route: string | undefined): void {
  const started = process.hrtime.bigint();
  res.once('close', () => {
    const status = res.writableFinished ? res.statusCode : 499;
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    recordHttpRequest({ method: req.method ?? 'OTHER', route, status, seconds });
  });
}
