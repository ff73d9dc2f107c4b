import { Module, type DynamicModule } from '@nestjs/common';
import { ADMIN_PATTERNS } from '@vault/contracts';
import { healthHandler, rpcServiceProviders } from '@vault/server-kit';
import type { AdminConfig } from './config/admin.config';
import { SecurityHandler } from './handlers/security.handler';
import { SystemHandler } from './handlers/system.handler';
import { TestRunnerHandler } from './handlers/test-runner.handler';
import { UsersHandler } from './handlers/users.handler';
import { SystemHealthService } from './health/system-health.service';
import { AuditLogRepository } from './repositories/audit-log.repository';
import { ServiceRpc } from './rpc/service-rpc';
import { AdminActions } from './services/admin-actions';
import { EventsExportService } from './services/events-export.service';
import { OperationsAdminService } from './services/operations-admin.service';
import { UsersAdminService } from './services/users-admin.service';
import { ADMIN_CONFIG, ADMIN_REDIS, adminDatabaseConfig } from './repositories/connections';
import { JEST_SUITE_COMMANDS, TEST_SUITE_COMMANDS, type SuiteCommands } from './test-runner/suite-commands';
import { TestRunStore } from './test-runner/test-run.store';
import { TestRunnerAdminService } from './test-runner/test-runner-admin.service';
import { TestRunnerService } from './test-runner/test-runner.service';

/** What only the medium tests change: the test runner's quick stand-in commands. */
export interface AdminModuleTestOptions {
  suiteCommands?: SuiteCommands;
}

/**
 * The admin service. It owns no user data: the console's calls ask auth, notes and files over RPC
 * (ServiceRpc), and every action is audited before it runs (AdminActions). Its own table is the admin audit log (AuditLogRepository).
 * Built from a validated config (nothing here reads the environment); Postgres and Redis are
 * connected while the module initialises, so a broken dependency fails the boot. The server test
 * runner always runs the fixed Jest table (JEST_SUITE_COMMANDS); `testing` is for the medium tests.
 */
@Module({})
export class AppModule {
  static forRoot(config: AdminConfig, testing: AdminModuleTestOptions = {}): DynamicModule {
    return {
      module: AppModule,
      controllers: [
        UsersHandler,
        SecurityHandler,
        SystemHandler,
        TestRunnerHandler,
        healthHandler(ADMIN_PATTERNS.health),
      ],
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
        { provide: TEST_SUITE_COMMANDS, useValue: testing.suiteCommands ?? JEST_SUITE_COMMANDS },
        TestRunStore,
        TestRunnerService,
        TestRunnerAdminService,
      ],
    };
  }
}
