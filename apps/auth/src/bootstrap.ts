import type { INestMicroservice, LoggerService } from '@nestjs/common';
import { startRpcService } from '@vault/server-kit';
import { AppModule } from './app.module';
import type { AuthConfig } from './config/auth.config';

/** Creates and starts the auth microservice (used by main.ts and by the medium tests). */
export function startAuthService(
  config: AuthConfig,
  logger: LoggerService | false,
): Promise<INestMicroservice> {
  return startRpcService(AppModule.forRoot(config), 'auth', config.rpc, logger);
}
