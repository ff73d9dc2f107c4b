import type { INestMicroservice, LoggerService } from '@nestjs/common';
import { startRpcService } from '@vault/server-kit';
import { AppModule } from './app.module';
import type { AdminConfig } from './config/admin.config';

/** Creates and starts the admin microservice (used by main.ts and by the medium tests). */
export function startAdminService(
  config: AdminConfig,
  logger: LoggerService | false,
): Promise<INestMicroservice> {
  return startRpcService(AppModule.forRoot(config), 'admin', config.rpc, logger);
}
