import 'reflect-metadata';
import { runMigrateCli } from '@vault/server-kit';
import { loadFilesDatabaseConfig } from './config/files.config';
import { filesDatabaseConfig } from './repositories/connections';

// `node apps/files/dist/migrate.js [--revert]`: see runMigrateCli.
runMigrateCli('files', () => filesDatabaseConfig(loadFilesDatabaseConfig()));
