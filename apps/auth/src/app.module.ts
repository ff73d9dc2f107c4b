import { Module, type DynamicModule } from '@nestjs/common';
import { AUTH_PATTERNS } from '@vault/contracts';
import { healthHandler, RedisRateLimiter, rpcServiceProviders, SecretHasher } from '@vault/server-kit';
import type Redis from 'ioredis';
import type { AuthConfig } from './config/auth.config';
import { AccountHandler } from './handlers/account.handler';
import { AdminHandler } from './handlers/admin.handler';
import { SecurityEventsHandler } from './handlers/security-events.handler';
import { AdminSessionHandler } from './handlers/admin-session.handler';
import { AccountDeletionHandler } from './handlers/account-deletion.handler';
import { EmergencyHandler } from './handlers/emergency.handler';
import { AccountSettingsHandler } from './handlers/account-settings.handler';
import { AuthHandler } from './handlers/auth.handler';
import { RecoveryHandler } from './handlers/recovery.handler';
import { SessionsHandler } from './handlers/sessions.handler';
import { TwoFactorHandler } from './handlers/two-factor.handler';
import { AUTH_CONFIG, AUTH_REDIS, authDatabaseConfig } from './repositories/connections';
import { AccountDeletionRepository } from './repositories/account-deletion.repository';
import { AdminUsersRepository } from './repositories/admin-users.repository';
import { AllSessionsRepository } from './repositories/all-sessions.repository';
import { AdminSessionsRepository } from './repositories/admin-sessions.repository';
import { PurgeQueueRepository } from './repositories/purge-queue.repository';
import { PurgeRequeueService } from './services/purge-requeue.service';
import { AccountSettingsRepository } from './repositories/account-settings.repository';
import { UnusualActivityRepository } from './repositories/unusual-activity.repository';
import { LoginAttemptsRepository } from './repositories/login-attempts.repository';
import { MailQueueRepository } from './repositories/mail-queue.repository';
import { MailerRepository } from './repositories/mailer.repository';
import { RecoveryRepository } from './repositories/recovery.repository';
import { RecoveryTokensRepository } from './repositories/recovery-tokens.repository';
import { SecurityEventsRepository } from './repositories/security-events.repository';
import { SessionsRepository } from './repositories/sessions.repository';
import { TwoFactorRepository } from './repositories/two-factor.repository';
import { UsersRepository } from './repositories/users.repository';
import { AccountService } from './services/account.service';
import { AdminAccountsService } from './services/admin-accounts.service';
import { AdminDirectoryService } from './services/admin-directory.service';
import { AdminEventsService } from './services/admin-events.service';
import { AdminUserSessionsService } from './services/admin-user-sessions.service';
import { AdminSessionService } from './services/admin-session.service';
import { AccountDeletionService } from './services/account-deletion.service';
import { EmergencyService } from './services/emergency.service';
import { AccountSettingsService } from './services/account-settings.service';
import { UnusualActivityService } from './services/unusual-activity.service';
import { AuthService } from './services/auth.service';
import { LoginGuardService } from './services/login-guard.service';
import { RecoveryService } from './services/recovery.service';
import { SecurityEventsService } from './services/security-events.service';
import { SessionService } from './services/session.service';
import { TokenService } from './services/token.service';
import { TwoFactorService } from './services/two-factor.service';

/**
 * The auth service. Built from a validated config (nothing here reads the environment);
 * Postgres, Redis and the JWT keys are connected/imported while the module initialises,
 * so a broken dependency fails the boot instead of the first request.
 */
@Module({})
export class AppModule {
  static forRoot(config: AuthConfig): DynamicModule {
    return {
      module: AppModule,
      controllers: [
        AuthHandler,
        AccountHandler,
        SessionsHandler,
        healthHandler(AUTH_PATTERNS.health),
        AccountDeletionHandler,
        EmergencyHandler,
        AccountSettingsHandler,
        TwoFactorHandler,
        RecoveryHandler,
        AdminHandler,
        SecurityEventsHandler,
        AdminSessionHandler,
      ],
      providers: [
        ...rpcServiceProviders({
          service: 'auth',
          config,
          configToken: AUTH_CONFIG,
          redisToken: AUTH_REDIS,
          database: authDatabaseConfig(config.database),
        }),
        // The one window counter of the failure and e-mail limits (login-attempts, recovery-tokens, two-factor).
        {
          provide: RedisRateLimiter,
          useFactory: (redis: Redis) => new RedisRateLimiter(redis),
          inject: [AUTH_REDIS],
        },
        { provide: SecretHasher, useFactory: () => new SecretHasher(config.secretHash) },
        { provide: TokenService, useFactory: () => TokenService.create(config.jwt) },
        UsersRepository,
        SecurityEventsRepository,
        SessionsRepository,
        LoginAttemptsRepository,
        UnusualActivityRepository,
        AccountDeletionRepository,
        PurgeQueueRepository,
        AccountSettingsRepository,
        TwoFactorRepository,
        SecurityEventsService,
        LoginGuardService,
        UnusualActivityService,
        EmergencyService,
        AccountDeletionService,
        PurgeRequeueService,
        AccountSettingsService,
        SessionService,
        TwoFactorService,
        AuthService,
        AccountService,
        RecoveryRepository,
        RecoveryTokensRepository,
        MailQueueRepository,
        MailerRepository,
        RecoveryService,
        // The admin console's calls (handlers/admin.handler.ts) and the user's own events.
        AdminUsersRepository,
        AllSessionsRepository,
        AdminDirectoryService,
        AdminAccountsService,
        AdminEventsService,
        AdminUserSessionsService,
        AdminSessionsRepository,
        AdminSessionService,
      ],
    };
  }
}
