import { Inject, Injectable } from '@nestjs/common';
import {
  ConnectionsLifecycleBase,
  connectDatabase as connectServiceDatabase,
  connectRedis,
  type DatabaseConfig,
} from '@vault/server-kit';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import type { FilesConfig } from '../config/files.config';
import { FileEntity } from '../entities/file.entity';
import { FILES_MIGRATIONS } from '../migrations';

/** DI tokens of the service's infrastructure. */
export const FILES_CONFIG = Symbol('FILES_CONFIG');
export const FILES_REDIS = Symbol('FILES_REDIS');

export const FILES_SCHEMA = 'files';

export function filesDatabaseConfig(database: FilesConfig['database']): DatabaseConfig {
  return {
    url: database.url,
    schema: FILES_SCHEMA,
    entities: [FileEntity],
    migrations: FILES_MIGRATIONS,
    poolSize: database.poolSize,
  };
}

export function connectDatabase(database: FilesConfig['database']): Promise<DataSource> {
  return connectServiceDatabase(filesDatabaseConfig(database));
}

export { connectRedis };

/** Closes the pool and the Redis client on SIGTERM/SIGINT (enableShutdownHooks). */
@Injectable()
export class ConnectionsLifecycle extends ConnectionsLifecycleBase {
  constructor(dataSource: DataSource, @Inject(FILES_REDIS) redis: Redis) {
    super(dataSource, redis);
  }
}
