import type { HealthReply } from '@vault/contracts';
import type { Logger } from 'pino';
import { describeEndpoint, InfrastructureUnavailableError } from '../database/connections';
import { startHealthServer } from '../health/health-server';
import { createLogger } from '../logging/logger';
import { setMetricsService } from '../metrics/registry';
import type { RpcTransportConfig } from '../rpc/rpc-options';

/** What every service's config carries for its boot. */
export interface BootConfig {
  log: { level: string; pretty: boolean };
  /** Optional HTTP probe listener (Kubernetes with NATS has no TCP port to probe). */
  health: { host: string; port?: number };
}

export interface StartedService {
  /** The readiness probe's check (stores, peers). */
  ready: () => Promise<HealthReply>;
  /** Lines logged once the service is up (where it listens, what it consumes). */
  announce: string[];
}

export interface ServiceBoot<C extends BootConfig> {
  /** Logger name and the `[name]` prefix of a configuration error: 'auth', 'scan-worker'. */
  service: string;
  /** 'Auth service', 'Scan worker'. */
  title: string;
  load: () => C;
  /** The configuration as it may appear in logs (secrets masked). */
  describe: (config: C) => Record<string, unknown>;
  start: (config: C, log: Logger) => Promise<StartedService>;
}

/** 'NATS nats://host:4222' or 'TCP 127.0.0.1:4001': where an RPC service listens. */
export function describeRpcListener(rpc: RpcTransportConfig): string {
  return rpc.transport === 'nats' ? `NATS ${describeEndpoint(rpc.natsUrl)}` : `TCP ${rpc.host}:${rpc.port}`;
}

/**
 * The boot of every service's main.ts: config (an invalid one exits 1 with one line listing
 * every problem), the logger, the service, the optional probe listener, then what it announces.
 * A failed start is logged as one fatal line (with a hint when a store is unreachable) and
 * exits 1.
 */
export async function runService<C extends BootConfig>(boot: ServiceBoot<C>): Promise<void> {
  let config: C;
  try {
    config = boot.load();
  } catch (error) {
    console.error(`[${boot.service}] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }

  const log = createLogger({ service: boot.service, level: config.log.level, pretty: config.log.pretty });
  setMetricsService(boot.service);
  log.info({ config: boot.describe(config) }, `Starting ${boot.title.toLowerCase()}`);

  try {
    const started = await boot.start(config, log);
    if (config.health.port !== undefined) {
      const { host } = config.health;
      // The bound port: HEALTH_PORT=0 takes a free one (the test stacks read it from this line).
      const { port } = await startHealthServer({ host, port: config.health.port, ready: started.ready });
      log.info(`Health probes on http://${host}:${port}/health/{live,ready}, metrics on /metrics`);
    }
    for (const line of started.announce) log.info(line);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const hint = error instanceof InfrastructureUnavailableError ? ' (is it running? check the URL)' : '';
    log.fatal(`${boot.title} failed to start: ${message}${hint}`);
    log.flush();
    process.exitCode = 1;
    // Give pino a moment to flush, then leave even if a socket keeps the loop alive.
    setTimeout(() => process.exit(1), 100).unref();
  }
}
