import { checkHealth, startHealthServer, type HealthServer } from '@vault/server-kit';
import type Redis from 'ioredis';
import type { GatewayConfig } from '../config/gateway.config';

/**
 * The gateway's internal ops listener (HEALTH_HOST/HEALTH_PORT; none when the port is unset):
 * `/metrics` for Prometheus and `/health/live`, `/health/ready` (Redis answers) for probes, on a
 * port of its own, so /metrics is never reachable through the public listener.
 */
export async function startOpsServer(
  config: Pick<GatewayConfig, 'ops'>,
  redis: Pick<Redis, 'ping'>,
): Promise<HealthServer | undefined> {
  const { host, port } = config.ops;
  if (port === undefined) return undefined;
  return startHealthServer({
    host,
    port,
    ready: () => checkHealth('gateway', { redis: () => redis.ping() }),
  });
}
