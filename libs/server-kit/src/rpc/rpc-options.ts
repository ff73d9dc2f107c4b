import { AsciiJsonSocket } from './ascii-json-socket';
import { Transport, type ClientOptions, type MicroserviceOptions } from '@nestjs/microservices';

export interface RpcTransportConfig {
  transport: 'tcp' | 'nats';
  natsUrl: string;
  /** TCP host/port of the service (listener side) or its peer (client side). */
  host: string;
  port: number;
}

/**
 * NATS clients try to reconnect for ever (every 2 s), not the library's 10 times: after those, a
 * listener would stay up without ever receiving a request again and a caller would fail for good,
 * so a NATS outage of over ~20 s needed every pod restarted (scripts/chaos-e2e.mjs proves it).
 */
const NATS_RECONNECT = { reconnect: true, maxReconnectAttempts: -1 } as const;

/**
 * One function for both ends, so a service and its clients can never disagree.
 * NATS uses a queue group per service, so replicas share the load (Kubernetes).
 */
export function rpcServerOptions(service: string, cfg: RpcTransportConfig): MicroserviceOptions {
  if (cfg.transport === 'nats') {
    return {
      transport: Transport.NATS,
      options: { servers: [cfg.natsUrl], queue: `vault-${service}`, ...NATS_RECONNECT },
    };
  }
  return {
    transport: Transport.TCP,
    options: { host: cfg.host, port: cfg.port, socketClass: AsciiJsonSocket },
  };
}

export function rpcClientOptions(service: string, cfg: RpcTransportConfig): ClientOptions {
  if (cfg.transport === 'nats') {
    return { transport: Transport.NATS, options: { servers: [cfg.natsUrl], ...NATS_RECONNECT } };
  }
  return {
    transport: Transport.TCP,
    options: { host: cfg.host, port: cfg.port, socketClass: AsciiJsonSocket },
  };
}
