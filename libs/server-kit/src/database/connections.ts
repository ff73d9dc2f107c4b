import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { createRedis } from '../redis/redis';
import { dataSourceOptions, type DatabaseConfig } from './data-source';

/** Raised at boot when Postgres or Redis cannot be reached; a service's main exits non-zero with it. */
export class InfrastructureUnavailableError extends Error {
  override name = 'InfrastructureUnavailableError';
}

/** host:port/db of a URL, never its credentials. */
export function describeEndpoint(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '(default port)'}${u.pathname.length > 1 ? u.pathname : ''}`;
  } catch {
    return '(unparseable URL)';
  }
}

const reasonOf = (error: unknown): string => {
  if (error instanceof AggregateError && error.errors.length > 0) return reasonOf(error.errors[0]);
  if (error instanceof Error) return (error as Error & { code?: string }).code ?? error.message;
  return String(error);
};

const redisLogger = new Logger('Redis');

/** Opens a service's pool on its own schema, or says plainly which server did not answer. */
export async function connectDatabase(cfg: DatabaseConfig): Promise<DataSource> {
  const ds = new DataSource(dataSourceOptions(cfg));
  try {
    await ds.initialize();
    return ds;
  } catch (error) {
    throw new InfrastructureUnavailableError(
      `PostgreSQL is unreachable at ${describeEndpoint(cfg.url)}: ${reasonOf(error)}`,
    );
  }
}

/** Connects (and pings) Redis under the deployment's key prefix, within a time limit. */
export async function connectRedis(redis: { url: string; prefix: string }, timeoutMs = 5000): Promise<Redis> {
  const client = createRedis(redis.url, redis.prefix, { lazyConnect: true });
  let lastError: unknown;
  client.on('error', (error: unknown) => {
    // ioredis reconnects by itself; report the cause (never the URL's credentials).
    if (lastError === undefined || reasonOf(lastError) !== reasonOf(error)) {
      redisLogger.warn(`Redis connection error: ${reasonOf(error)}`);
    }
    lastError = error;
  });
  client.on('ready', () => {
    lastError = undefined;
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect().then(() => client.ping()),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return client;
  } catch (error) {
    client.disconnect();
    throw new InfrastructureUnavailableError(
      `Redis is unreachable at ${describeEndpoint(redis.url)}: ${reasonOf(lastError ?? error)}`,
    );
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/** Closes a service's pool and Redis client on SIGTERM/SIGINT (enableShutdownHooks). */
export class ConnectionsLifecycle implements OnApplicationShutdown {
  private readonly logger = new Logger('ConnectionsLifecycle');

  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: Redis,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([
      this.dataSource.isInitialized ? this.dataSource.destroy() : Promise.resolve(),
      this.redis.quit().catch(() => this.redis.disconnect()),
    ]);
    this.logger.log('Connections closed');
  }
}
