import { createServer, type Server } from 'node:http';
import type { HealthReply } from '@vault/contracts';

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
 * A tiny HTTP listener for orchestrator probes of services that speak only RPC
 * (Kubernetes with the NATS transport has no TCP port to probe). `GET /health/live`
 * answers while the process runs; `GET /health/ready` answers 200 only when the
 * service's stores answer. Nothing else is served, and nothing is logged per probe.
 */
export async function startHealthServer(opts: HealthServerOptions): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, { error: 'Method not allowed' });
    if (req.url === '/health/live') return send(200, { status: 'ok' });
    if (req.url === '/health/ready') {
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
