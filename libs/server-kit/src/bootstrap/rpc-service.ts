import {
  Controller,
  Inject,
  Logger,
  type DynamicModule,
  type INestApplicationContext,
  type INestMicroservice,
  type InjectionToken,
  type LoggerService,
  type Provider,
  type Type,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern } from '@nestjs/microservices';
import type { HealthReply, RpcAdmin, RpcAuth } from '@vault/contracts';
import type Redis from 'ioredis';
import type { Logger as PinoLogger } from 'pino';
import { DataSource } from 'typeorm';
import { connectDatabase, connectRedis, ConnectionsLifecycle } from '../database/connections';
import type { DatabaseConfig } from '../database/data-source';
import { RpcDomainExceptionFilter } from '../errors/rpc-exception.filter';
import { checkHealth, memoryUsage, serviceVersion, type HealthProbe } from '../health/health';
import { PinoNestLogger } from '../logging/logger';
import { setMetricsService } from '../metrics/registry';
import { RpcMetricsInterceptor } from '../metrics/rpc-metrics';
import { rpcServerOptions, type RpcTransportConfig } from '../rpc/rpc-options';
import { assertLiveCaller, readAdmin, readContext, type AdminCallRequirement } from '../rpc/rpc-request';
import { describeRpcListener, runService, type BootConfig, type ServiceBoot } from './run-service';

/**
 * The pieces every RPC service (auth, notes, files) is built from: its microservice, its stores
 * (PostgreSQL on its own schema, Redis) with their shutdown, its readiness check and health
 * handler, and the re-check of the caller's session.
 */

/**
 * Creates and starts a service's RPC microservice. Boot errors are reported by the caller with a
 * clear message instead of process.abort().
 */
export async function startRpcService(
  module: DynamicModule,
  service: string,
  rpc: RpcTransportConfig,
  logger: LoggerService | false,
): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice(module, {
    ...rpcServerOptions(service, rpc),
    logger,
    abortOnError: false,
  });
  app.useGlobalFilters(new RpcDomainExceptionFilter());
  // rpc_server_duration_seconds of every handler (docs/metrics.md).
  setMetricsService(service);
  app.useGlobalInterceptors(new RpcMetricsInterceptor());
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await app.listen();
  return app;
}

/**
 * A service's readiness: its named probes, reported under its name (checkHealth), with its
 * package version and its memory for the admin console (the gateway's public health has neither).
 */
export class ServiceHealth {
  private readonly version: string | undefined;

  constructor(
    private readonly service: string,
    private readonly probes: Record<string, HealthProbe>,
  ) {
    this.version = serviceVersion(service);
  }

  async check(): Promise<HealthReply> {
    const reply = await checkHealth(this.service, this.probes);
    return { ...reply, ...(this.version ? { version: this.version } : {}), memory: memoryUsage() };
  }
}

/** The controller answering a service's health pattern (e.g. NOTES_PATTERNS.health). */
export function healthHandler(pattern: string): Type<unknown> {
  @Controller()
  class HealthHandler {
    constructor(@Inject(ServiceHealth) private readonly health: ServiceHealth) {}

    @MessagePattern(pattern)
    check(): Promise<HealthReply> {
      return this.health.check();
    }
  }
  return HealthHandler;
}

/**
 * Who is calling: the gateway has verified the access token and the session already; this
 * re-checks (defence in depth) that the session still exists and belongs to the user the
 * context names (auth's `sess:{sid}` hash, read only), and for an admin call that its console
 * session does (`admin-sess:{key}`), taking the admin's rights from there.
 */
export class CallerService {
  private readonly logger = new Logger(CallerService.name);

  constructor(private readonly redis: Redis) {}

  assertAlive(auth: RpcAuth | undefined): Promise<RpcAuth> {
    return assertLiveCaller(this.redis, auth, (error) =>
      this.logger.warn(`Session check failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  /** The live caller named by an RPC payload's context. */
  of(payload: unknown): Promise<RpcAuth> {
    return this.assertAlive(readContext(payload).auth);
  }

  /** The admin of an admin call, checked against its live console session (readAdmin). */
  admin(payload: unknown, requirement: AdminCallRequirement): Promise<RpcAdmin> {
    return readAdmin(this.redis, payload, requirement, (error) =>
      this.logger.warn(
        `Admin session check failed: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  }
}

export interface RpcServiceStores {
  /** The name its health reply carries ('notes'). */
  service: string;
  config: { redis: { url: string; prefix: string } };
  /** DI tokens the service's classes inject its config and its Redis client with. */
  configToken: symbol;
  redisToken: symbol;
  database: DatabaseConfig;
  /** Readiness probes besides the database and Redis, made from other providers (files: queue, storage). */
  probes?: { inject: InjectionToken[]; make: (...deps: never[]) => Record<string, HealthProbe> };
}

/**
 * The providers of a service's config and stores: Postgres and Redis are connected while the
 * module initialises, so a broken dependency fails the boot instead of the first request.
 */
export function rpcServiceProviders(stores: RpcServiceStores): Provider[] {
  const { configToken, redisToken, probes } = stores;
  const inject = [DataSource, redisToken];
  return [
    { provide: configToken, useValue: stores.config },
    { provide: DataSource, useFactory: () => connectDatabase(stores.database) },
    { provide: redisToken, useFactory: () => connectRedis(stores.config.redis) },
    {
      provide: ConnectionsLifecycle,
      useFactory: (dataSource: DataSource, redis: Redis) => new ConnectionsLifecycle(dataSource, redis),
      inject,
    },
    { provide: CallerService, useFactory: (redis: Redis) => new CallerService(redis), inject: [redisToken] },
    {
      provide: ServiceHealth,
      useFactory: (dataSource: DataSource, redis: Redis, ...deps: never[]) =>
        new ServiceHealth(stores.service, {
          database: () => dataSource.query('SELECT 1'),
          redis: () => redis.ping(),
          ...probes?.make(...deps),
        }),
      inject: [...inject, ...(probes?.inject ?? [])],
    },
  ];
}

/** The main.ts of an RPC service: runService's boot, with readiness from its ServiceHealth. */
export interface RpcServiceBoot<C extends BootConfig & { rpc: RpcTransportConfig }> extends Omit<
  ServiceBoot<C>,
  'start'
> {
  start: (config: C, logger: PinoNestLogger, log: PinoLogger) => Promise<INestApplicationContext>;
  /** Lines to log after "<title> listening on <transport>" (other listeners, storage). */
  announce?: (config: C) => string[];
}

export function runRpcService<C extends BootConfig & { rpc: RpcTransportConfig }>(
  boot: RpcServiceBoot<C>,
): Promise<void> {
  return runService({
    ...boot,
    async start(config, log) {
      const health = (await boot.start(config, new PinoNestLogger(log), log)).get(ServiceHealth);
      return {
        ready: () => health.check(),
        announce: [
          `${boot.title} listening on ${describeRpcListener(config.rpc)}`,
          ...(boot.announce?.(config) ?? []),
        ],
      };
    },
  });
}
