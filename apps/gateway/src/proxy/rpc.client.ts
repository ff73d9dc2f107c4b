import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ClientProxyFactory, type ClientProxy } from '@nestjs/microservices';
import type { RpcContext, RpcPattern, RpcReply, RpcRequestBody, RpcService } from '@vault/contracts';
import { rpcCall, rpcClientOptions } from '@vault/server-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config';

const SERVICES: readonly RpcService[] = ['auth', 'notes', 'files', 'admin'];

/**
 * The services as the gateway sees them: one typed call per message pattern of the contracts'
 * RPC map, sent to the service the pattern's prefix names, as a request/response over the
 * configured transport. Errors arrive as VaultError; a peer that is down or silent becomes 503
 * SERVICE_UNAVAILABLE (rpcCall). Only metadata travels here: file bytes go by signed URL to
 * storage, or through the files service's HTTP blob route (FilesBlobProxy), never over RPC.
 */
@Injectable()
export class RpcClient implements OnApplicationShutdown {
  private readonly clients: Record<RpcService, ClientProxy>;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {
    const { transport, natsUrl } = config.rpc;
    this.clients = Object.fromEntries(
      SERVICES.map((service) => [
        service,
        ClientProxyFactory.create(
          rpcClientOptions(service, {
            transport,
            natsUrl,
            host: config[service].host,
            port: config[service].port,
          }),
        ),
      ]),
    ) as Record<RpcService, ClientProxy>;
  }

  call<P extends RpcPattern>(
    pattern: P,
    ctx: RpcContext,
    body: RpcRequestBody<P>,
    timeoutMs = this.config.rpc.timeoutMs,
  ): Promise<RpcReply<P>> {
    const service = pattern.slice(0, pattern.indexOf('.')) as RpcService;
    return rpcCall<RpcReply<P>, RpcRequestBody<P>>(this.clients[service], pattern, { ctx, body }, timeoutMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(Object.values(this.clients).map((client) => client.close()));
  }
}
