import 'reflect-metadata';
import { loadDatabaseConfig, runMigrateCli } from '@vault/server-kit';
import { adminDatabaseConfig } from './repositories/connections';

// `node apps/admin/dist/migrate.js [--revert]`: see runMigrateCli.
runMigrateCli('admin', () => adminDatabaseConfig(loadDatabaseConfig()));
