import type { OnApplicationShutdown } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import type { RpcContext } from '@vault/contracts';
import { rpcCall } from '@vault/server-kit';
import type { GatewayConfig } from '../config/gateway.config';

/**
 * A service as the gateway sees it: subclasses add one typed method per message pattern, each
 * a request/response over the configured transport. Errors arrive as VaultError; a peer that
 * is down or silent becomes 503 SERVICE_UNAVAILABLE (rpcCall).
 */
export abstract class RpcServiceClient implements OnApplicationShutdown {
  protected constructor(
    private readonly client: ClientProxy,
    protected readonly config: GatewayConfig,
  ) {}

  protected call<TRes, TBody = undefined>(
    pattern: string,
    ctx: RpcContext,
    body: TBody,
    timeoutMs = this.config.rpc.timeoutMs,
  ): Promise<TRes> {
    return rpcCall<TRes, TBody>(this.client, pattern, { ctx, body }, timeoutMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}
