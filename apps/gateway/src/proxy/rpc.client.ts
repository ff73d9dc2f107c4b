import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import type { RpcContext, RpcPattern, RpcReply, RpcRequestBody, RpcService } from '@vault/contracts';
import { rpcCall } from '@vault/server-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config';

export const AUTH_RPC = Symbol('AUTH_RPC');
export const NOTES_RPC = Symbol('NOTES_RPC');
export const FILES_RPC = Symbol('FILES_RPC');
export const ADMIN_RPC = Symbol('ADMIN_RPC');

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

  constructor(
    @Inject(AUTH_RPC) auth: ClientProxy,
    @Inject(NOTES_RPC) notes: ClientProxy,
    @Inject(FILES_RPC) files: ClientProxy,
    @Inject(ADMIN_RPC) admin: ClientProxy,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    this.clients = { auth, notes, files, admin };
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
