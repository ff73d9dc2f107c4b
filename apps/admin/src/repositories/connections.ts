import type { DatabaseConfig } from '@vault/server-kit';
import type { AdminConfig } from '../config/admin.config';
import { ADMIN_MIGRATIONS } from '../migrations';

/** DI tokens of the service's infrastructure (provided by server-kit's rpcServiceProviders). */
export const ADMIN_CONFIG = Symbol('ADMIN_CONFIG');
export const ADMIN_REDIS = Symbol('ADMIN_REDIS');

/** The service's own schema and its migrations (the audit log is read and written in SQL, no entity). */
export function adminDatabaseConfig(database: AdminConfig['database']): DatabaseConfig {
  return { ...database, schema: 'admin', entities: [], migrations: ADMIN_MIGRATIONS };
}
