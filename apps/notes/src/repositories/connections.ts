import type { DatabaseConfig } from '@vault/server-kit';
import type { NotesConfig } from '../config/notes.config';
import { NoteEntity } from '../entities/note.entity';
import { NOTES_MIGRATIONS } from '../migrations';

/** DI tokens of the service's infrastructure (provided by server-kit's rpcServiceProviders). */
export const NOTES_CONFIG = Symbol('NOTES_CONFIG');
export const NOTES_REDIS = Symbol('NOTES_REDIS');

/** The service's own schema, its entities and its migrations. */
export function notesDatabaseConfig(database: NotesConfig['database']): DatabaseConfig {
  return { ...database, schema: 'notes', entities: [NoteEntity], migrations: NOTES_MIGRATIONS };
}
