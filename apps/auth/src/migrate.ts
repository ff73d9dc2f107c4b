import 'reflect-metadata';
import { loadDatabaseConfig, runMigrateCli } from '@vault/server-kit';
import { authDatabaseConfig } from './repositories/connections';

// `node apps/auth/dist/migrate.js [--revert]`: see runMigrateCli.
runMigrateCli('auth', () => authDatabaseConfig(loadDatabaseConfig()));
