import 'reflect-metadata';
import { loadDatabaseConfig, runMigrateCli } from '@vault/server-kit';
import { notesDatabaseConfig } from './repositories/connections';

// `node apps/notes/dist/migrate.js [--revert]`: see runMigrateCli.
runMigrateCli('notes', () => notesDatabaseConfig(loadDatabaseConfig()));
