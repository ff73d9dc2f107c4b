import { createServer, type Server } from 'node:http';
import type { HealthReply } from '@vault/contracts';
import { renderMetrics } from '../metrics/registry';

export interface HealthServerOptions {
  host: string;
  port: number;
  /** The service's own readiness check (its stores, its peers). */
  ready: () => Promise<HealthReply>;
}

export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

/**
 * A tiny internal HTTP listener for orchestrator probes and Prometheus (Kubernetes with the NATS
 * transport has no TCP port to probe). `GET /health/live` answers while the process runs;
 * `GET /health/ready` answers 200 only when the service's stores answer; `GET /metrics` is the
 * process's metrics in Prometheus' text format (docs/metrics.md). Nothing else is served, and
 * nothing is logged per probe or scrape. It is never the public listener: the gateway's runs on
 * its own port (HEALTH_PORT), so /metrics is not reachable from the internet.
 */
export async function startHealthServer(opts: HealthServerOptions): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, { error: 'Method not allowed' });
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/metrics') {
      renderMetrics().then(
        ({ contentType, body }) => {
          res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
          res.end(req.method === 'HEAD' ? undefined : body);
        },
        () => send(503, { error: 'Metrics unavailable' }),
      );
      return;
    }
    if (path === '/health/live') return send(200, { status: 'ok' });
    if (path === '/health/ready') {
      opts.ready().then(
        (reply) => send(reply.status === 'ok' ? 200 : 503, reply),
        () => send(503, { status: 'degraded' }),
      );
      return;
    }
    send(404, { error: 'Not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, resolve);
  });
  // Probes must never hold the process open during shutdown.
  server.unref();
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : opts.port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
