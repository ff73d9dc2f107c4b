import type { DatabaseConfig } from '@vault/server-kit';
import type { FilesConfig } from '../config/files.config';
import { FileEntity } from '../entities/file.entity';
import { FILES_MIGRATIONS } from '../migrations';

/** DI tokens of the service's infrastructure (provided by server-kit's rpcServiceProviders). */
export const FILES_CONFIG = Symbol('FILES_CONFIG');
export const FILES_REDIS = Symbol('FILES_REDIS');

/** The service's own schema, its entities and its migrations. */
export function filesDatabaseConfig(database: FilesConfig['database']): DatabaseConfig {
  return { ...database, schema: 'files', entities: [FileEntity], migrations: FILES_MIGRATIONS };
}
