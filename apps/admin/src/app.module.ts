import { Module, type DynamicModule } from '@nestjs/common';
import { ADMIN_PATTERNS } from '@vault/contracts';
import { healthHandler, rpcServiceProviders } from '@vault/server-kit';
import type { AdminConfig } from './config/admin.config';
import { SecurityHandler } from './handlers/security.handler';
import { SystemHandler } from './handlers/system.handler';
import { UsersHandler } from './handlers/users.handler';
import { SystemHealthService } from './health/system-health.service';
import { AuditLogRepository } from './repositories/audit-log.repository';
import { ServiceRpc } from './rpc/service-rpc';
import { AdminActions } from './services/admin-actions';
import { EventsExportService } from './services/events-export.service';
import { OperationsAdminService } from './services/operations-admin.service';
import { UsersAdminService } from './services/users-admin.service';
import { ADMIN_CONFIG, ADMIN_REDIS, adminDatabaseConfig } from './repositories/connections';

/**
 * The admin service. It owns no user data: the console's calls ask auth, notes and files over RPC
 * (ServiceRpc), and every action is audited before it runs (AdminActions). Its own table is the admin audit log (AuditLogRepository).
 * Built from a validated config (nothing here reads the environment); Postgres and Redis are
 * connected while the module initialises, so a broken dependency fails the boot.
 */
@Module({})
export class AppModule {
  static forRoot(config: AdminConfig): DynamicModule {
    return {
      module: AppModule,
      controllers: [UsersHandler, SecurityHandler, SystemHandler, healthHandler(ADMIN_PATTERNS.health)],
      providers: [
        ...rpcServiceProviders({
          service: 'admin',
          config,
          configToken: ADMIN_CONFIG,
          redisToken: ADMIN_REDIS,
          database: adminDatabaseConfig(config.database),
        }),
        AuditLogRepository,
        ServiceRpc,
        AdminActions,
        UsersAdminService,
        EventsExportService,
        OperationsAdminService,
        SystemHealthService,
      ],
    };
  }
}
