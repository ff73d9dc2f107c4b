import 'reflect-metadata';
import { runMigrateCli } from '@vault/server-kit';
import { loadAuthDatabaseConfig } from './config/auth.config';
import { authDatabaseConfig } from './repositories/connections';

// `node apps/auth/dist/migrate.js [--revert]`: see runMigrateCli.
runMigrateCli('auth', () => authDatabaseConfig(loadAuthDatabaseConfig()));
