import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { createRedis, dataSourceOptions, type DatabaseConfig } from '@vault/server-kit';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import type { NotesConfig } from '../config/notes.config';
import { NoteEntity } from '../entities/note.entity';
import { NOTES_MIGRATIONS } from '../migrations';

/** DI tokens of the service's infrastructure. */
export const NOTES_CONFIG = Symbol('NOTES_CONFIG');
export const NOTES_REDIS = Symbol('NOTES_REDIS');

export const NOTES_SCHEMA = 'notes';

/** Raised at boot when Postgres or Redis cannot be reached; main.ts exits non-zero with it. */
export class InfrastructureUnavailableError extends Error {
  override name = 'InfrastructureUnavailableError';
}

export function notesDatabaseConfig(database: NotesConfig['database']): DatabaseConfig {
  return {
    url: database.url,
    schema: NOTES_SCHEMA,
    entities: [NoteEntity],
    migrations: NOTES_MIGRATIONS,
    poolSize: database.poolSize,
  };
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

export async function connectDatabase(database: NotesConfig['database']): Promise<DataSource> {
  const ds = new DataSource(dataSourceOptions(notesDatabaseConfig(database)));
  try {
    await ds.initialize();
    return ds;
  } catch (error) {
    throw new InfrastructureUnavailableError(
      `PostgreSQL is unreachable at ${describeEndpoint(database.url)}: ${reasonOf(error)}`,
    );
  }
}

export async function connectRedis(redis: NotesConfig['redis'], timeoutMs = 5000): Promise<Redis> {
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

/** Closes the pool and the Redis client on SIGTERM/SIGINT (enableShutdownHooks). */
@Injectable()
export class ConnectionsLifecycle implements OnApplicationShutdown {
  private readonly logger = new Logger(ConnectionsLifecycle.name);

  constructor(
    private readonly dataSource: DataSource,
    @Inject(NOTES_REDIS) private readonly redis: Redis,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([
      this.dataSource.isInitialized ? this.dataSource.destroy() : Promise.resolve(),
      this.redis.quit().catch(() => this.redis.disconnect()),
    ]);
    this.logger.log('Connections closed');
  }
}
