import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { RpcClients } from '@vault/server-kit';
import type { AdminConfig } from '../config/admin.config';
import { ADMIN_CONFIG } from '../repositories/connections';

/**
 * The services the console's calls ask (auth, notes, files): server-kit's typed RpcClients, the
 * same the gateway uses. The admin's context travels on, so each service checks the permission
 * again.
 */
@Injectable()
export class ServiceRpc extends RpcClients implements OnApplicationShutdown {
  constructor(@Inject(ADMIN_CONFIG) config: AdminConfig) {
    super(config.peers);
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}
