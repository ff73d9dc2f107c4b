import { ClientProxyFactory, type ClientProxy } from '@nestjs/microservices';
import type { RpcContext, RpcPattern, RpcReply, RpcRequestBody, RpcService } from '@vault/contracts';
import { timedRpcCall } from '../metrics/rpc-metrics';
import { rpcCall } from './rpc-call';
import { rpcClientOptions } from './rpc-options';

/** Where a caller finds its peers: the transport, and each peer's TCP address. */
export interface RpcPeersConfig {
  transport: 'tcp' | 'nats';
  natsUrl: string;
  /** The default time limit of a call. */
  timeoutMs: number;
  peers: Partial<Record<RpcService, { host: string; port: number }>>;
}

/**
 * Typed calls to other services (the gateway, the admin service): one call per message pattern of
 * the contracts' RPC map, sent to the service the pattern's prefix names. Errors arrive as
 * VaultError; a peer that is down or silent becomes SERVICE_UNAVAILABLE (rpcCall). Each call is
 * timed in rpc_client_duration_seconds (docs/metrics.md).
 */
export class RpcClients {
  private readonly clients: Partial<Record<RpcService, ClientProxy>>;

  constructor(private readonly peersConfig: RpcPeersConfig) {
    const { transport, natsUrl, peers } = peersConfig;
    this.clients = Object.fromEntries(
      Object.entries(peers).map(([service, address]) => [
        service,
        ClientProxyFactory.create(rpcClientOptions(service, { transport, natsUrl, ...address })),
      ]),
    );
  }

  call<P extends RpcPattern>(
    pattern: P,
    ctx: RpcContext,
    body: RpcRequestBody<P>,
    timeoutMs = this.peersConfig.timeoutMs,
  ): Promise<RpcReply<P>> {
    const service = pattern.slice(0, pattern.indexOf('.')) as RpcService;
    const client = this.clients[service];
    // A programming error (a peer left out of the config), not a caller's.
    if (!client) throw new Error(`no RPC client for service "${service}"`);
    return timedRpcCall(pattern, () =>
      rpcCall<RpcReply<P>, RpcRequestBody<P>>(client, pattern, { ctx, body }, timeoutMs),
    );
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.clients).map((client) => client.close()));
  }
}
