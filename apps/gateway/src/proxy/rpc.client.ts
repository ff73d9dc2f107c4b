import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { RpcClients } from '@vault/server-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config';

/**
 * The services as the gateway sees them: server-kit's RpcClients (one typed call per message
 * pattern of the contracts' RPC map, sent to the service the pattern's prefix names) over the
 * configured transport. Errors arrive as VaultError; a peer that is down or silent becomes 503
 * SERVICE_UNAVAILABLE. Only metadata travels here: file bytes go by signed URL to storage, or
 * through the files service's HTTP blob route (FilesBlobProxy), never over RPC.
 */
@Injectable()
export class RpcClient extends RpcClients implements OnApplicationShutdown {
  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    const { transport, natsUrl, timeoutMs } = config.rpc;
    const address = ({ host, port }: { host: string; port: number }) => ({ host, port });
    super({
      transport,
      natsUrl,
      timeoutMs,
      peers: {
        auth: address(config.auth),
        notes: address(config.notes),
        files: address(config.files),
        admin: address(config.admin),
      },
    });
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}
