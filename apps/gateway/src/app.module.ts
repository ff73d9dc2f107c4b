import { Module, type DynamicModule, type OnApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { RedisRateLimiter } from '@vault/server-kit';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import { AdminCookies } from './auth/admin-cookie';
import { AdminGuard } from './auth/admin.guard';
import { JwtAuthGuard } from './auth/jwt-auth.guard';
import { JwtVerifier } from './auth/jwt-verifier';
import { RefreshCookies } from './auth/refresh-cookie';
import { SessionLiveness } from './auth/session-liveness';
import { sessionCheckProviders } from './auth/session-watch';
import { GATEWAY_CONFIG, type GatewayConfig } from './config/gateway.config';
import { HttpExceptionFilter } from './errors/http-exception.filter';
import { LOGGER } from './logging/logger.token';
import { FilesBlobProxy } from './proxy/files-blob.proxy';
import { RpcClient } from './proxy/rpc.client';
import { REDIS } from './redis/redis.token';
import { GATEWAY_CONTROLLERS } from './routes/controllers';
import { CloudinaryMultipartUpload } from './routes/files/cloudinary-multipart.upload';
import { HealthService } from './routes/health/health.service';
import { WebConfigRoute } from './routes/web-config/web-config.route';
import { RateLimitGuard } from './security/rate-limit.guard';

export interface GatewayModuleOptions {
  config: GatewayConfig;
  logger: Logger;
  /** Connected by the bootstrap (connectRedis), closed with the app. */
  redis: Redis;
}

@Injectable()
class RedisLifecycle implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

@Module({})
export class AppModule {
  static forRoot({ config, logger, redis }: GatewayModuleOptions): DynamicModule {
    return {
      module: AppModule,
      controllers: GATEWAY_CONTROLLERS,
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        { provide: REDIS, useValue: redis },
        RedisLifecycle,
        RpcClient,
        { provide: FilesBlobProxy, useFactory: () => new FilesBlobProxy({ httpUrl: config.files.httpUrl }) },
        CloudinaryMultipartUpload,
        { provide: JwtVerifier, useFactory: () => JwtVerifier.fromPems(config.jwtPublicKeys) },
        ...sessionCheckProviders(config),
        SessionLiveness,
        RefreshCookies,
        AdminCookies,
        { provide: RedisRateLimiter, useFactory: () => new RedisRateLimiter(redis) },
        HealthService,
        WebConfigRoute,
        // Global guards run in this order: who is calling first, so limits count per user; then the
        // limits, before an admin route's session check costs a call to auth.
        { provide: APP_GUARD, useClass: JwtAuthGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        // Admin routes: the admin cookie's session and the route's permission (no bearer token).
        { provide: APP_GUARD, useClass: AdminGuard },
        { provide: APP_FILTER, useClass: HttpExceptionFilter },
      ],
    };
  }
}
