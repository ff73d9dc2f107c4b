import 'reflect-metadata';
import { loadDatabaseConfig, runMigrateCli } from '@vault/server-kit';
import { filesDatabaseConfig } from './repositories/connections';

// `node apps/files/dist/migrate.js [--revert]`: see runMigrateCli.
runMigrateCli('files', () => filesDatabaseConfig(loadDatabaseConfig()));
