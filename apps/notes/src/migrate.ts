import 'reflect-metadata';
import { runMigrateCli } from '@vault/server-kit';
import { loadNotesDatabaseConfig } from './config/notes.config';
import { notesDatabaseConfig } from './repositories/connections';

// `node apps/notes/dist/migrate.js [--revert]`: see runMigrateCli.
runMigrateCli('notes', () => notesDatabaseConfig(loadNotesDatabaseConfig()));
