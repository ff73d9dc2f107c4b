/** What other tooling may import from the notes service (scripts, docs generators). */
export { AppModule } from './app.module';
export { startNotesService } from './bootstrap';
export { loadNotesConfig, notesEnvSchema, type NotesConfig, type NotesEnv } from './config/notes.config';
export { NOTES_MIGRATIONS } from './migrations';
