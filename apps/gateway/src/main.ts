import { createLogger } from '@vault/server-kit';
import { describeConfig, loadGatewayConfig, type GatewayConfig } from './config/gateway.config';
import { createGatewayApp } from './bootstrap';
import { startOpsServer } from './ops/ops-server';
import { REDIS } from './redis/redis.token';
import { RedisUnavailableError } from './redis/redis.provider';

/** Longest a graceful shutdown may take before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config: GatewayConfig;
  try {
    config = loadGatewayConfig();
  } catch (error) {
    console.error(`gateway: ${(error as Error).message}`);
    process.exit(1);
  }
  const logger = createLogger({ service: 'gateway', level: config.logLevel, pretty: config.logPretty });
  logger.info({ config: describeConfig(config) }, 'starting');
  try {
    const app = await createGatewayApp({ config, logger });
    // Nest closes the server (in-flight requests finish), then Redis and the RPC client.
    app.enableShutdownHooks(['SIGINT', 'SIGTERM']);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        logger.info({ signal }, 'shutting down');
        setTimeout(() => {
          logger.error('shutdown took too long; exiting');
          process.exit(1);
        }, SHUTDOWN_GRACE_MS).unref();
      });
    }
    await app.listen({ host: config.host, port: config.port });
    logger.info({ url: `http://${config.host}:${config.port}` }, 'gateway listening');
    const ops = await startOpsServer(config, app.get(REDIS));
    if (ops) {
      // The bound port: HEALTH_PORT=0 takes a free one (the test stacks read it from this line).
      const url = `http://${config.ops.host}:${ops.port}`;
      logger.info({ url }, `Health probes on ${url}/health/{live,ready}, metrics on /metrics`);
    }
  } catch (error) {
    if (error instanceof RedisUnavailableError) {
      logger.fatal(error.message);
      console.error(`gateway: ${error.message}`);
    } else {
      const err = error as Error;
      logger.fatal({ err: { message: err.message, stack: err.stack } }, 'gateway failed to start');
    }
    logger.flush?.();
    setTimeout(() => process.exit(1), 100);
  }
}

void main();
