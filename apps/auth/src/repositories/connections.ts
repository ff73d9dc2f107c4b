import { Inject, Injectable } from '@nestjs/common';
import {
  ConnectionsLifecycleBase,
  connectDatabase as connectServiceDatabase,
  connectRedis,
  type DatabaseConfig,
} from '@vault/server-kit';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import type { AuthConfig } from '../config/auth.config';
import { SecurityEventEntity } from '../entities/security-event.entity';
import { UserEntity } from '../entities/user.entity';
import { AUTH_MIGRATIONS } from '../migrations';

/** DI tokens of the service's infrastructure. */
export const AUTH_CONFIG = Symbol('AUTH_CONFIG');
export const AUTH_REDIS = Symbol('AUTH_REDIS');

export const AUTH_SCHEMA = 'auth';

export function authDatabaseConfig(database: AuthConfig['database']): DatabaseConfig {
  return {
    url: database.url,
    schema: AUTH_SCHEMA,
    entities: [UserEntity, SecurityEventEntity],
    migrations: AUTH_MIGRATIONS,
    poolSize: database.poolSize,
  };
}

export function connectDatabase(database: AuthConfig['database']): Promise<DataSource> {
  return connectServiceDatabase(authDatabaseConfig(database));
}

export { connectRedis };

/** Closes the pool and the Redis client on SIGTERM/SIGINT (enableShutdownHooks). */
@Injectable()
export class ConnectionsLifecycle extends ConnectionsLifecycleBase {
  constructor(dataSource: DataSource, @Inject(AUTH_REDIS) redis: Redis) {
    super(dataSource, redis);
  }
}
