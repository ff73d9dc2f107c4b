import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { PinoNestLogger, setMetricsService } from '@vault/server-kit';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { AppModule } from './app.module';
import type { GatewayConfig } from './config/gateway.config';
import { registerRequestLogging, requestIdFor } from './logging/request-logging';
import { setupOpenApi } from './openapi/openapi.setup';
import { registerHttpMetrics } from './ops/http-metrics';
import { registerStringBodies } from './ops/string-bodies';
import { connectRedis } from './redis/redis.provider';
import { API_PREFIX } from './routes/controllers';
import { registerSecurityHeaders } from './security/security-headers';
import { registerSpa, resolveWebRoot } from './static/spa';
import { registerJsonBodyParser } from './validation/json-body.parser';
import { registerStreamedBodies } from './validation/streamed-body.parser';
import { clientErrorHandler } from './errors/client-error.handler';
import { frameworkErrorHandler } from './errors/framework-error.handler';

/**
 * TRUST_PROXY=true trusts exactly the peer that connects (the proxy), so the client IP is
 * the entry that proxy added to X-Forwarded-For; entries a client forged further left are
 * ignored. Fastify's `true` would trust them all, and its hop count fails closed.
 */
export function trustProxyOption(
  value: GatewayConfig['trustProxy'],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (value === true) return (_address, hop) => hop === 0;
  return value;
}

export interface CreateGatewayOptions {
  config: GatewayConfig;
  logger: Logger;
}

/**
 * Builds the whole gateway (used by main.ts and by the medium tests): a Fastify instance
 * with the edge concerns as hooks, Nest on top for routes, guards, pipes and the filter.
 * Returns it initialised and ready for `listen()` or `inject()`.
 */
export async function createGatewayApp({
  config,
  logger,
}: CreateGatewayOptions): Promise<NestFastifyApplication> {
  const redis = await connectRedis(config, logger);
  const fastify = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: requestIdFor,
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: config.bodyLimitBytes,
    return503OnClosing: true,
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
    forceCloseConnections: 'idle',
  });
  let app: NestFastifyApplication;
  try {
    app = await NestFactory.create<NestFastifyApplication>(
      AppModule.forRoot({ config, logger, redis }),
      new FastifyAdapter(fastify as never),
      {
        logger: new PinoNestLogger(logger.child({ component: 'nest' })),
        bodyParser: false,
        abortOnError: false,
      },
    );
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  try {
    await configure(app, fastify, config, logger);
  } catch (error) {
    await app.close().catch(() => undefined);
    redis.disconnect();
    throw error;
  }
  return app;
}

async function configure(
  app: NestFastifyApplication,
  fastify: FastifyInstance,
  config: GatewayConfig,
  logger: Logger,
): Promise<void> {
  app.setGlobalPrefix(API_PREFIX);
  if (config.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.corsOrigins,
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['content-type', 'authorization', 'x-request-id', 'range'],
      exposedHeaders: ['x-request-id', 'retry-after', 'content-range', 'accept-ranges'],
      maxAge: 600,
    });
  }
  registerRequestLogging(fastify);
  setMetricsService('gateway');
  registerHttpMetrics(fastify);
  registerJsonBodyParser(fastify, config.bodyLimitBytes);
  registerStreamedBodies(fastify);
  registerStringBodies(fastify);
  await registerSecurityHeaders(fastify, {
    connectOrigins: [config.storageOrigins.s3, config.storageOrigins.cloudinaryUpload].filter(
      (origin): origin is string => origin !== undefined,
    ),
  });
  if (config.serveStatic) await registerSpa(fastify, resolveWebRoot(config.webRoot, logger));
  setupOpenApi(app);
  await app.init();
  await fastify.ready();
}
