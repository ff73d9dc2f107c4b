import { createRedis } from '@vault/server-kit';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config/gateway.config';

export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

const CONNECT_TIMEOUT_MS = 5000;

/**
 * Connects to Redis and waits for a PING, so a gateway without Redis stops at boot with a
 * clear message instead of answering 503s. Same REDIS_PREFIX as auth: the session keys are
 * auth's, read here.
 */
export async function connectRedis(config: GatewayConfig, logger: Logger): Promise<Redis> {
  const redis = createRedis(config.redis.url, config.redis.prefix, {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
  });
  let lastLogged = 0;
  let lastError: string | undefined;
  redis.on('error', (error: Error) => {
    lastError = error.message;
    // ioredis retries on its own; one line per 30 s is enough to see it in the log.
    if (Date.now() - lastLogged < 30_000) return;
    lastLogged = Date.now();
    logger.warn({ error: error.message }, 'redis connection error');
  });
  const where = config.redis.url.replace(/\/\/([^:/@]+):([^@]+)@/, '//$1:***@');
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      redis.connect().then(() => redis.ping()),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${CONNECT_TIMEOUT_MS} ms`)),
          CONNECT_TIMEOUT_MS,
        );
      }),
    ]);
  } catch (error) {
    redis.disconnect();
    throw new RedisUnavailableError(
      `Redis is not reachable at ${where} (REDIS_URL): ${lastError ?? (error as Error).message}. ` +
        'Start Redis or point REDIS_URL at it, then start the gateway again.',
    );
  } finally {
    if (timer) clearTimeout(timer);
  }
  return redis;
}
