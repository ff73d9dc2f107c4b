/** What other tooling may import from the files service (scripts, tests, docs generators). */
export { AppModule } from './app.module';
export { startFilesService, type RunningFilesService } from './bootstrap';
export {
  filesEnvSchema,
  loadFilesConfig,
  toStorageSettings,
  type FilesConfig,
  type FilesEnv,
} from './config/files.config';
export { FILES_MIGRATIONS } from './migrations';
