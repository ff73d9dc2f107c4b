import { Module, type DynamicModule } from '@nestjs/common';
import { ADMIN_PATTERNS } from '@vault/contracts';
import { healthHandler, rpcServiceProviders } from '@vault/server-kit';
import type { AdminConfig } from './config/admin.config';
import { AuditLogRepository } from './repositories/audit-log.repository';
import { ADMIN_CONFIG, ADMIN_REDIS, adminDatabaseConfig } from './repositories/connections';

/**
 * The admin service. It owns no user data: the console's calls (next increments of issue 14) ask
 * auth, notes and files over RPC. Its own table is the admin audit log (AuditLogRepository).
 * Built from a validated config (nothing here reads the environment); Postgres and Redis are
 * connected while the module initialises, so a broken dependency fails the boot.
 */
@Module({})
export class AppModule {
  static forRoot(config: AdminConfig): DynamicModule {
    return {
      module: AppModule,
      controllers: [healthHandler(ADMIN_PATTERNS.health)],
      providers: [
        ...rpcServiceProviders({
          service: 'admin',
          config,
          configToken: ADMIN_CONFIG,
          redisToken: ADMIN_REDIS,
          database: adminDatabaseConfig(config.database),
        }),
        AuditLogRepository,
      ],
    };
  }
}
