import type { DatabaseConfig } from '@vault/server-kit';
import type { AuthConfig } from '../config/auth.config';
import { SecurityEventEntity } from '../entities/security-event.entity';
import { UserEntity } from '../entities/user.entity';
import { AUTH_MIGRATIONS } from '../migrations';

/** DI tokens of the service's infrastructure (provided by server-kit's rpcServiceProviders). */
export const AUTH_CONFIG = Symbol('AUTH_CONFIG');
export const AUTH_REDIS = Symbol('AUTH_REDIS');

/** The service's own schema, its entities and its migrations. */
export function authDatabaseConfig(database: AuthConfig['database']): DatabaseConfig {
  return {
    ...database,
    schema: 'auth',
    entities: [UserEntity, SecurityEventEntity],
    migrations: AUTH_MIGRATIONS,
  };
}
